import { Chip, Stack, Typography, type ChipProps } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import { qualityColor, statusColor, type ChipColor } from './model';

/**
 * A chip's look for a status colour that keeps text contrast in both themes: success and error
 * filled (their contrast text), others outlined with the normal text colour and a coloured border.
 */
function chipLook(color: ChipColor, fill = true): Pick<ChipProps, 'color' | 'variant' | 'sx'> {
  if (fill && (color === 'success' || color === 'error')) return { color, variant: 'filled' };
  return { variant: 'outlined', sx: { color: 'text.primary', borderColor: color === 'default' ? undefined : `${color}.main`, borderWidth: color === 'default' ? 1 : 2 } };
}

/** Meta's rejection reason in words (Meta's code when we have no words for it). */
export function useReasonText(): (reason: string | null | undefined) => string | null {
  const { t } = useTranslation();
  return (reason) => (reason ? t(`templates.reasons.${reason}`, { defaultValue: reason.replace(/_/g, ' ').toLowerCase() }) : null);
}

/** The review status chip; a rejection (or a pause) shows Meta's reason under it. */
export function StatusChip({ template }: { template: Pick<WhatsAppTemplate, 'status' | 'rejected_reason'> }) {
  const { t } = useTranslation();
  const reasonText = useReasonText();
  const reason = template.rejected_reason && template.rejected_reason !== 'NONE' ? reasonText(template.rejected_reason) : null;
  return (
    <Stack spacing={0.5} alignItems="flex-start" data-testid="template-status">
      <Chip
        size="small"
        {...chipLook(statusColor(template.status))}
        label={t(`templates.status.${template.status}`, { defaultValue: template.status })}
        data-status={template.status}
      />
      {reason && (
        <Typography variant="caption" color="error" data-testid="template-reason">
          {t('templates.reason', { reason })}
        </Typography>
      )}
    </Stack>
  );
}

export function QualityChip({ score }: { score: string }) {
  const { t } = useTranslation();
  const quality = t(`templates.quality.${score}`, { defaultValue: score });
  return <Chip size="small" {...chipLook(qualityColor(score), false)} label={quality} role="img" aria-label={t('templates.qualityLabel', { quality })} />;
}
