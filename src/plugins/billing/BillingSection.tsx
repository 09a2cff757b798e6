import { useEffect, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Divider, Grid, Stack, Typography } from '@mui/material';
import { mdiCreditCardOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { ConfirmDialog, errorText, MdiIcon, useAccess, useAccount, useAlert } from '../../core';
import type { Subscription, SubscriptionStatus } from '../../../contract/billing';
import { SectionCard } from '../../core/components/SectionCard';
import { formatDate } from './format';
import { InvoicesTable, OUTLINED_LABEL } from './InvoicesTable';
import { PlanLimits } from './PlanLimits';
import { browserLocation, useBilling } from './store';

/** How often the section asks again while the provider's confirmation of a checkout is pending. */
const PENDING_POLL_MS = 1500;
/** It stops asking after this many tries (the page can be reloaded). */
const PENDING_POLL_TRIES = 40;

const STATUS_COLORS: Record<SubscriptionStatus, 'default' | 'success' | 'warning' | 'error' | 'info'> = {
  free: 'default',
  incomplete: 'warning',
  incomplete_expired: 'default',
  trialing: 'info',
  active: 'success',
  past_due: 'error',
  unpaid: 'error',
  canceled: 'default',
  paused: 'warning',
};

function PlanSummary({ subscription }: { subscription: Subscription }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const end = formatDate(subscription.current_period_end, locale);
  const card = subscription.payment_method;
  return (
    <Stack spacing={1.5}>
      <Box>
        <Typography variant="overline" color="text.secondary" component="p">
          {t('billing.section.plan')}
        </Typography>
        <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
          <Typography variant="h5" component="p" fontWeight={700} data-testid="billing-plan-name">
            {subscription.plan.name}
          </Typography>
          <Chip size="small" color={STATUS_COLORS[subscription.status] ?? 'default'} label={t(`billing.status.${subscription.status}`)} data-testid="billing-status" />
          {subscription.cancel_at_period_end && <Chip size="small" color="warning" variant="outlined" sx={OUTLINED_LABEL} label={t('billing.status.cancelling')} />}
        </Stack>
      </Box>
      {subscription.status === 'free' || subscription.plan.is_free ? (
        <Typography variant="body2" color="text.secondary">
          {t('billing.section.freeNote')}
        </Typography>
      ) : (
        <>
          {end && (
            <Typography variant="body2">
              {subscription.ended_at
                ? t('billing.section.ended', { date: formatDate(subscription.ended_at, locale) })
                : t(subscription.cancel_at_period_end ? 'billing.section.ends' : 'billing.section.renews', { date: end })}
            </Typography>
          )}
          <Stack direction="row" spacing={1} alignItems="center">
            <MdiIcon path={mdiCreditCardOutline} fontSize="small" aria-hidden />
            <Typography variant="body2">
              <Box component="span" sx={{ color: 'text.secondary', mr: 1 }}>
                {t('billing.section.paymentMethod')}:
              </Box>
              {card
                ? t('billing.section.card', { brand: card.brand.charAt(0).toUpperCase() + card.brand.slice(1), last4: card.last4, month: String(card.exp_month).padStart(2, '0'), year: card.exp_year })
                : t('billing.section.noCard')}
            </Typography>
          </Stack>
        </>
      )}
    </Stack>
  );
}

/**
 * The billing section of /account (spec §4, §7): the subscription of GET /api/subscriptions/active/
 * (the page's query string passed as is, so the checkout's return is confirmed at once), its usage,
 * cancel at period end ('Subscription cancelled successfully', reload, go to account), resume, the
 * payment method through the provider's portal, and the invoices.
 */
export function BillingSection() {
  const { t, i18n } = useTranslation();
  const alert = useAlert();
  const location = useLocation();
  const navigate = useNavigate();
  const { companyId } = useAccount();
  const { canManage } = useAccess('billing');
  const [{ subscription }, store] = useBilling();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState<null | 'cancel' | 'resume' | 'portal'>(null);
  const search = location.search;
  const checkout = new URLSearchParams(search).get('checkout');
  // Back from a plan switch (POST /api/subscriptions/ answers /account?plan_changed=1): its invoice is in the list below.
  const planChanged = new URLSearchParams(search).get('plan_changed') === '1';
  const sub = subscription.data;
  const waiting = !!sub?.checkout_pending && checkout === 'success';

  useEffect(() => {
    void store.loadSubscription(search);
  }, [store, companyId, search]);

  // Back from the checkout before the provider's confirmation arrived: ask again until it has.
  useEffect(() => {
    if (!waiting) return;
    let tries = 0;
    const timer = setInterval(() => {
      tries += 1;
      if (tries >= PENDING_POLL_TRIES) clearInterval(timer);
      void store.loadSubscription(search);
    }, PENDING_POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, store, search]);

  // A new plan or status brings a new invoice: reload them.
  const invoicesKey = sub ? `${sub.id}:${sub.status}:${sub.plan.id}:${sub.cancel_at_period_end}` : '';
  useEffect(() => {
    if (invoicesKey) void store.loadInvoices();
  }, [store, invoicesKey]);

  const cancel = async () => {
    setPending('cancel');
    try {
      await store.cancel();
      setConfirming(false);
      alert.success(t('billing.section.cancelled'));
      await store.loadSubscription();
      navigate('/account');
    } catch (error) {
      setConfirming(false);
      alert.error(errorText(error));
    } finally {
      setPending(null);
    }
  };

  const resume = async () => {
    setPending('resume');
    try {
      await store.resume();
      alert.success(t('billing.section.resumed'));
    } catch (error) {
      alert.error(errorText(error));
    } finally {
      setPending(null);
    }
  };

  const portal = async () => {
    setPending('portal');
    try {
      browserLocation.assign(await store.portalUrl());
    } catch (error) {
      setPending(null);
      alert.error(errorText(error));
    }
  };

  const paid = !!sub && !sub.plan.is_free && sub.status !== 'free' && sub.status !== 'canceled' && sub.status !== 'incomplete_expired';
  const spinner = (on: boolean) => (on ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined);

  return (
    <SectionCard title={t('billing.section.title')} subtitle={t('billing.section.subtitle')}>
      {subscription.loading && !sub ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status">
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('billing.section.loading')}</Typography>
        </Stack>
      ) : subscription.error && !sub ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void store.loadSubscription(search)}>
              {t('billing.pricing.retry')}
            </Button>
          }
        >
          {t('billing.section.loadError', { error: errorText(subscription.error) })}
        </Alert>
      ) : sub ? (
        <Stack spacing={3}>
          {waiting && (
            <Alert severity="info" icon={<CircularProgress size={20} aria-hidden />} role="status">
              {t('billing.section.checkoutPending')}
            </Alert>
          )}
          {checkout === 'success' && !waiting && paid && (
            <Alert severity="success" role="status">
              {t('billing.section.checkoutSuccess', { plan: sub.plan.name })}
            </Alert>
          )}
          {planChanged && paid && (
            <Alert severity="success" role="status">
              {t('billing.section.planChanged', { plan: sub.plan.name })}
            </Alert>
          )}
          {checkout === 'cancelled' && (
            <Alert severity="info" role="status">
              {t('billing.section.checkoutCancelled')}
            </Alert>
          )}
          {sub.payment_failed && <Alert severity="warning">{t('billing.section.paymentFailed')}</Alert>}
          {sub.cancel_at_period_end && sub.current_period_end && !sub.ended_at && (
            <Alert severity="warning">{t('billing.section.cancelScheduled', { date: formatDate(sub.current_period_end, i18n.language) })}</Alert>
          )}
          <Grid container spacing={3}>
            <Grid size={{ xs: 12, md: 6 }}>
              <PlanSummary subscription={sub} />
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Typography variant="overline" color="text.secondary" component="p">
                {t('billing.section.usage')}
              </Typography>
              <PlanLimits limits={sub.plan.limits} usage={sub.usage} />
            </Grid>
          </Grid>
          {canManage ? (
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} flexWrap="wrap" useFlexGap>
              <Button component={RouterLink} to="/pricing" variant={paid ? 'outlined' : 'contained'} disableElevation sx={{ fontWeight: 600 }}>
                {paid ? t('billing.section.changePlan') : t('billing.section.seePlans')}
              </Button>
              {paid && (
                <Button variant="outlined" onClick={portal} disabled={pending !== null} startIcon={spinner(pending === 'portal')}>
                  {pending === 'portal' ? t('billing.section.opening') : t('billing.section.manageCard')}
                </Button>
              )}
              {paid && !sub.cancel_at_period_end && (
                <Button variant="outlined" color="error" onClick={() => setConfirming(true)} disabled={pending !== null}>
                  {t('billing.section.cancel')}
                </Button>
              )}
              {paid && sub.cancel_at_period_end && (
                <Button variant="contained" disableElevation onClick={resume} disabled={pending !== null} startIcon={spinner(pending === 'resume')}>
                  {t('billing.section.resume')}
                </Button>
              )}
            </Stack>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {t('billing.section.manageOnly')}
            </Typography>
          )}
          <Divider />
          <InvoicesTable />
        </Stack>
      ) : null}
      <ConfirmDialog
        open={confirming}
        pending={pending === 'cancel'}
        title={t('billing.section.cancelDialog.title')}
        message={t('billing.section.cancelDialog.message', { plan: sub?.plan.name ?? '', date: formatDate(sub?.current_period_end, i18n.language) })}
        confirmLabel={t('billing.section.cancelDialog.confirm')}
        cancelLabel={t('billing.section.cancelDialog.keep')}
        onConfirm={() => void cancel()}
        onClose={() => setConfirming(false)}
      />
    </SectionCard>
  );
}
