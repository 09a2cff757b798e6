import { useEffect, useId, useState } from 'react';
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../core';
import type { Plan, PlanChangePreview } from '../../../contract/billing';
import { formatDate, formatMoney } from './format';
import { useBilling } from './store';

/**
 * A paying company's plan switch, confirmed with its price: the provider's proration preview (the old plan's
 * unused time credited, the new plan's remaining time charged, what is due now) and what each period costs
 * from the renewal on. Confirming bills exactly the previewed amount (its proration date goes back with it).
 */
export function PlanChangeDialog({ from, to, onClose, onConfirmed }: { from: Plan | null; to: Plan; onClose: () => void; onConfirmed: (url: string) => void }) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const [, store] = useBilling();
  const [preview, setPreview] = useState<PlanChangePreview | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let live = true;
    store.previewChange(to.id).then(
      (answer) => live && setPreview(answer),
      (failure: unknown) => live && setError(failure),
    );
    return () => {
      live = false;
    };
  }, [store, to.id]);

  const money = (amount: number) => formatMoney(amount, preview?.currency ?? to.currency, i18n.language);
  const confirm = async () => {
    if (!preview) return;
    setPending(true);
    setError(null);
    try {
      onConfirmed(await store.startCheckout(to.id, preview.proration_date));
    } catch (failure) {
      setPending(false);
      setError(failure);
    }
  };

  return (
    <Dialog open onClose={pending ? undefined : onClose} aria-labelledby={titleId} maxWidth="sm" fullWidth data-testid="plan-change-dialog">
      <DialogTitle id={titleId}>{t('billing.change.title', { from: from?.name ?? '', to: to.name })}</DialogTitle>
      <DialogContent>
        {!preview && !error && (
          <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ py: 2 }}>
            <CircularProgress size={20} aria-hidden />
            <Typography variant="body2">{t('billing.change.loading')}</Typography>
          </Stack>
        )}
        {error !== null && (
          <Alert severity="error" sx={{ mb: 2 }}>
            {t('billing.change.error', { error: errorText(error) })}
          </Alert>
        )}
        {preview && (
          <>
            <Table size="small" aria-label={t('billing.change.linesLabel')}>
              <TableBody>
                {preview.lines.map((line, index) => (
                  <TableRow key={index} data-testid="plan-change-line">
                    <TableCell sx={{ pl: 0 }}>{t(line.amount < 0 ? 'billing.change.credit' : 'billing.change.charge', { plan: line.amount < 0 ? (from?.name ?? '') : to.name })}</TableCell>
                    <TableCell align="right" sx={{ pr: 0, whiteSpace: 'nowrap' }}>
                      {money(line.amount)}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
              <TableFooter>
                <TableRow>
                  <TableCell sx={{ pl: 0, fontWeight: 700, color: 'text.primary', fontSize: '1rem' }}>{t('billing.change.dueNow')}</TableCell>
                  <TableCell align="right" data-testid="plan-change-due" sx={{ pr: 0, fontWeight: 700, color: 'text.primary', fontSize: '1rem', whiteSpace: 'nowrap' }}>
                    {money(preview.amount_due)}
                  </TableCell>
                </TableRow>
              </TableFooter>
            </Table>
            {preview.total < 0 && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1.5 }}>
                {t('billing.change.creditKept', { amount: money(-preview.total) })}
              </Typography>
            )}
            <Typography variant="body2" sx={{ mt: 1.5 }} data-testid="plan-change-next">
              {preview.next_renewal_at
                ? t('billing.change.then', { amount: money(preview.next_amount), period: t(to.interval === 'year' ? 'billing.pricing.perYear' : 'billing.pricing.perMonth'), date: formatDate(preview.next_renewal_at, i18n.language) })
                : t('billing.change.thenNoDate', { amount: money(preview.next_amount), period: t(to.interval === 'year' ? 'billing.pricing.perYear' : 'billing.pricing.perMonth') })}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('billing.change.charged')}
            </Typography>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          {t('billing.change.cancel')}
        </Button>
        <Button
          variant="contained"
          disableElevation
          onClick={() => void confirm()}
          disabled={!preview || pending}
          startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          sx={{ fontWeight: 600 }}
        >
          {preview ? t('billing.change.confirm', { amount: money(preview.amount_due) }) : t('billing.change.confirmNoAmount')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
