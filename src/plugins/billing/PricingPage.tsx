import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Chip,
  CircularProgress,
  Divider,
  Grid,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { mdiCheckCircle } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { EmptyView, errorText, MdiIcon, useAccess, useAccount, useAlert } from '../../core';
import type { Plan, PlanInterval } from '../../../contract/billing';
import { formatMoney } from './format';
import { PlanChangeDialog } from './PlanChangeDialog';
import { PlanLimits } from './PlanLimits';
import { browserLocation, useBilling } from './store';

function PlanCard({ plan, paying, canManage, busy, onSubscribe }: { plan: Plan; paying: boolean; canManage: boolean; busy: number | null; onSubscribe: (plan: Plan) => void }) {
  const { t, i18n } = useTranslation();
  const titleId = `plan-${plan.id}-name`;
  const price = plan.is_free ? t('billing.pricing.free') : formatMoney(plan.amount, plan.currency, i18n.language, { compact: true });
  const period = plan.is_free ? t('billing.pricing.forever') : t(plan.interval === 'year' ? 'billing.pricing.perYear' : 'billing.pricing.perMonth');
  const redirecting = busy === plan.id;
  return (
    <Card
      component="article"
      aria-labelledby={titleId}
      variant="outlined"
      data-testid={`plan-${plan.code}`}
      sx={{ height: '100%', display: 'flex', flexDirection: 'column', borderRadius: 3, borderWidth: plan.is_current ? 2 : 1, borderColor: plan.is_current ? 'primary.main' : 'divider' }}
    >
      <CardContent sx={{ flexGrow: 1, p: 3 }}>
        <Stack direction="row" justifyContent="space-between" alignItems="center" spacing={1}>
          <Typography id={titleId} variant="h6" component="h2" fontWeight={700}>
            {plan.name}
          </Typography>
          {plan.is_current && <Chip color="primary" size="small" icon={<MdiIcon path={mdiCheckCircle} />} label={t('billing.pricing.current')} />}
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, minHeight: 40 }}>
          {t(`billing.tiers.${plan.tier}`, { defaultValue: plan.description })}
        </Typography>
        <Stack direction="row" alignItems="baseline" spacing={0.75} sx={{ my: 2 }}>
          <Typography component="p" variant="h4" fontWeight={700}>
            {price}
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary">
            {period}
          </Typography>
        </Stack>
        <Divider sx={{ mb: 2 }} />
        <PlanLimits limits={plan.limits} />
      </CardContent>
      <CardActions sx={{ p: 3, pt: 0, flexDirection: 'column', alignItems: 'stretch', gap: 1 }}>
        {plan.is_current ? (
          <Button variant="outlined" disabled fullWidth>
            {t('billing.pricing.current')}
          </Button>
        ) : plan.is_free ? (
          paying && (
            <>
              <Typography variant="body2" color="text.secondary">
                {t('billing.pricing.freeDowngrade')}
              </Typography>
              <Button component={RouterLink} to="/account" variant="text">
                {t('billing.pricing.goToAccount')}
              </Button>
            </>
          )
        ) : (
          <Button
            variant="contained"
            disableElevation
            fullWidth
            disabled={!canManage || busy !== null}
            onClick={() => onSubscribe(plan)}
            startIcon={redirecting ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            sx={{ fontWeight: 600 }}
          >
            {redirecting ? t('billing.pricing.redirecting') : t(paying ? 'billing.pricing.switch' : 'billing.pricing.subscribe', { name: plan.name })}
          </Button>
        )}
      </CardActions>
    </Card>
  );
}

/**
 * /pricing (spec §2, §4): the plans of GET /api/plans/, monthly or yearly, the company's current plan
 * marked; subscribing asks for a checkout (POST /api/subscriptions/ {plan_id}) and sends the browser
 * to the provider's checkout page, which returns to /account.
 */
export default function PricingPage() {
  const { t } = useTranslation();
  const alert = useAlert();
  const { companyId } = useAccount();
  const { canManage } = useAccess('billing');
  const [{ plans }, store] = useBilling();
  const [busy, setBusy] = useState<number | null>(null);
  const [chosen, setChosen] = useState<PlanInterval | null>(null);

  useEffect(() => {
    void store.loadPlans();
    setBusy(null);
  }, [store, companyId]);

  const list = useMemo(() => plans.data ?? [], [plans.data]);
  const current = list.find((p) => p.is_current) ?? null;
  const paying = !!current && !current.is_free;
  const intervals = useMemo(() => [...new Set(list.map((p) => p.interval).filter((i): i is PlanInterval => !!i))], [list]);
  const interval: PlanInterval = chosen ?? current?.interval ?? intervals[0] ?? 'month';
  const shown = list.filter((p) => p.is_free || p.interval === interval);

  const [changing, setChanging] = useState<Plan | null>(null);

  const subscribe = async (plan: Plan) => {
    // A paying company's switch is confirmed with its prorated price first (./PlanChangeDialog.tsx).
    if (paying) {
      setChanging(plan);
      return;
    }
    setBusy(plan.id);
    try {
      browserLocation.assign(await store.startCheckout(plan.id));
    } catch (error) {
      setBusy(null);
      alert.error(errorText(error));
    }
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1280 }}>
      <Stack direction={{ xs: 'column', md: 'row' }} justifyContent="space-between" alignItems={{ md: 'flex-end' }} spacing={2} sx={{ mb: 3 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('billing.pricing.title')}
          </Typography>
          <Typography color="text.secondary">{t('billing.pricing.subtitle')}</Typography>
        </Box>
        {intervals.length > 1 && (
          <ToggleButtonGroup
            exclusive
            size="small"
            color="primary"
            value={interval}
            onChange={(_, value: PlanInterval | null) => value && setChosen(value)}
            aria-label={t('billing.pricing.interval')}
            // the unselected button's grey on the page background falls short of 4.5:1: the paper and the primary text
            sx={{ alignSelf: { xs: 'flex-start', md: 'auto' }, bgcolor: 'background.paper', '& .MuiToggleButton-root:not(.Mui-selected)': { color: 'text.primary' } }}
          >
            {intervals.map((i) => (
              <ToggleButton key={i} value={i} sx={{ px: 2 }}>
                {t(`billing.pricing.${i}`)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
      </Stack>
      {!canManage && list.length > 0 && (
        <Alert severity="info" sx={{ mb: 3 }}>
          {t('billing.pricing.manageOnly')}
        </Alert>
      )}
      {plans.loading && !plans.data ? (
        <Stack direction="row" spacing={1} alignItems="center" justifyContent="center" role="status" sx={{ py: 6 }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('billing.pricing.loading')}</Typography>
        </Stack>
      ) : plans.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void store.loadPlans()}>
              {t('billing.pricing.retry')}
            </Button>
          }
        >
          {t('billing.pricing.loadError', { error: errorText(plans.error) })}
        </Alert>
      ) : shown.length === 0 ? (
        <EmptyView />
      ) : (
        <Grid container spacing={3} component="section" aria-label={t('billing.pricing.plansOf', { interval: t(`billing.pricing.${interval}`) })}>
          {shown.map((plan) => (
            <Grid key={plan.id} size={{ xs: 12, sm: 6, lg: 3 }}>
              <PlanCard plan={plan} paying={paying} canManage={canManage} busy={busy} onSubscribe={subscribe} />
            </Grid>
          ))}
        </Grid>
      )}
      {changing && (
        <PlanChangeDialog
          from={current}
          to={changing}
          onClose={() => setChanging(null)}
          onConfirmed={(url) => {
            setBusy(changing.id);
            browserLocation.assign(url);
          }}
        />
      )}
    </Box>
  );
}
