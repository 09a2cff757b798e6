import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { PLAN_LIMIT_KEYS as ContractKeys, PlanLimits as Limits, PlanUsage } from '../../../contract/billing';

/**
 * contract/billing's PLAN_LIMIT_KEYS, type-checked to be the same tuple. Not a value import: this
 * section is part of the shell (account sections), and contract/billing's zod schemas (the pricing
 * page's) would join the shell's chunk with it (bench/bundle).
 */
const PLAN_LIMIT_KEYS: typeof ContractKeys = ['members', 'channels', 'bots', 'broadcast_recipients_per_month', 'assistant_answers'];
import { formatCount } from './format';

/** A plan's limits as a description list; with `usage`, what the company uses of each. */
export function PlanLimits({ limits, usage }: { limits: Limits; usage?: PlanUsage }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const value = (key: (typeof PLAN_LIMIT_KEYS)[number]) => {
    const max = limits[key];
    if (!usage) return max === null ? t('billing.limits.unlimited') : formatCount(max, locale);
    const used = formatCount(usage[key] ?? 0, locale);
    return max === null ? t('billing.limits.usageUnlimited', { used }) : t('billing.limits.usage', { used, max: formatCount(max, locale) });
  };
  return (
    <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: '1fr auto', columnGap: 2, rowGap: 0.75 }}>
      {PLAN_LIMIT_KEYS.map((key) => (
        <Box key={key} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {t(`billing.limits.${key}`)}
          </Typography>
          <Typography component="dd" variant="body2" fontWeight={600} sx={{ m: 0, textAlign: 'right' }}>
            {value(key)}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
