import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ALL_PAGE_SIZE, EmptyView, errorText, InlineFacts, safeUrl, TABLE_PAGE_SIZES, useIsPhone } from '../../core';
import type { Invoice, InvoiceStatus } from '../../../contract/billing';
import { formatDate, formatMoney } from './format';
import { useBilling } from './store';

const STATUS_COLORS: Record<InvoiceStatus, 'default' | 'info' | 'success' | 'warning' | 'error'> = {
  draft: 'default',
  open: 'info',
  paid: 'success',
  uncollectible: 'error',
  void: 'default',
};

/** An outlined chip's coloured label falls short of 4.5:1 on the dark paper: the border carries the colour, the label the text colour. */
export const OUTLINED_LABEL = { '& .MuiChip-label': { color: 'text.primary' } } as const;

function InvoiceStatusChip({ status }: { status: InvoiceStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" variant="outlined" color={STATUS_COLORS[status] ?? 'default'} sx={OUTLINED_LABEL} label={t(`billing.invoices.statuses.${status}`, { defaultValue: status })} />;
}

/** What the invoice is for: the amount paid once paid, the amount due before. */
function amountOf(invoice: Invoice, locale: string): string {
  return formatMoney(invoice.status === 'paid' ? invoice.amount_paid : invoice.amount_due, invoice.currency, locale);
}

function InvoiceLinks({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const number = invoice.number ?? t('billing.invoices.draft');
  const pdf = safeUrl(invoice.invoice_pdf);
  const hosted = safeUrl(invoice.hosted_invoice_url);
  return (
    <Stack direction="row" spacing={2} justifyContent="flex-end">
      {pdf && (
        <Link href={pdf} target="_blank" rel="noopener noreferrer" aria-label={t('billing.invoices.pdfLabel', { number })}>
          {t('billing.invoices.pdf')}
        </Link>
      )}
      {hosted && (
        <Link href={hosted} target="_blank" rel="noopener noreferrer" aria-label={t('billing.invoices.viewLabel', { number })}>
          {t('billing.invoices.view')}
        </Link>
      )}
    </Stack>
  );
}

/** The company's invoices (GET /api/invoices/, newest first), paged with the spec's page sizes; the billing section loads them. */
export function InvoicesTable() {
  const { t, i18n } = useTranslation();
  const [{ invoices }, store] = useBilling();
  const locale = i18n.language;
  const phone = useIsPhone();

  const rows = invoices.data?.results ?? [];
  const count = invoices.data?.count ?? 0;
  const sizes = TABLE_PAGE_SIZES.map((size) => (size === -1 ? { label: t('core.table.all'), value: ALL_PAGE_SIZE } : size));

  return (
    <Box component="section" aria-labelledby="billing-invoices-title">
      <Stack direction="row" alignItems="center" spacing={1} sx={{ mb: 1 }}>
        <Typography id="billing-invoices-title" variant="subtitle1" component="h3" fontWeight={600}>
          {t('billing.invoices.title')}
        </Typography>
        {invoices.loading && invoices.data && <CircularProgress size={16} aria-label={t('billing.invoices.loading')} />}
      </Stack>
      {invoices.loading && !invoices.data ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ py: 3 }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('billing.invoices.loading')}</Typography>
        </Stack>
      ) : invoices.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void store.loadInvoices()}>
              {t('billing.pricing.retry')}
            </Button>
          }
        >
          {t('billing.invoices.loadError', { error: errorText(invoices.error) })}
        </Alert>
      ) : count === 0 ? (
        <EmptyView />
      ) : (
        <>
          <TableContainer>
            <Table size="small" aria-labelledby="billing-invoices-title">
              <TableHead>
                <TableRow>
                  <TableCell>{t('billing.invoices.number')}</TableCell>
                  {!phone && (
                    <>
                      <TableCell>{t('billing.invoices.date')}</TableCell>
                      <TableCell>{t('billing.invoices.plan')}</TableCell>
                      <TableCell align="right">{t('billing.invoices.amount')}</TableCell>
                      <TableCell>{t('billing.invoices.status')}</TableCell>
                    </>
                  )}
                  <TableCell align="right">{t('billing.invoices.documents')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((invoice) => (
                  <TableRow key={invoice.id} data-testid="invoice-row">
                    {phone ? (
                      // A phone: the invoice in one stacked cell beside its documents, nothing scrolled sideways.
                      <TableCell>
                        <Stack spacing={0.75} sx={{ alignItems: 'flex-start' }}>
                          <Stack direction="row" spacing={1} alignItems="center">
                            <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                              {invoice.number ?? t('billing.invoices.draft')}
                            </Typography>
                            <InvoiceStatusChip status={invoice.status} />
                          </Stack>
                          <InlineFacts
                            facts={[
                              { label: t('billing.invoices.amount'), value: amountOf(invoice, locale) },
                              { label: t('billing.invoices.date'), value: formatDate(invoice.created_at, locale) },
                              { label: t('billing.invoices.plan'), value: invoice.plan_name },
                            ]}
                          />
                        </Stack>
                      </TableCell>
                    ) : (
                      <>
                        <TableCell sx={{ fontFamily: 'monospace' }}>{invoice.number ?? t('billing.invoices.draft')}</TableCell>
                        <TableCell>{formatDate(invoice.created_at, locale)}</TableCell>
                        <TableCell>{invoice.plan_name ?? ''}</TableCell>
                        <TableCell align="right">{amountOf(invoice, locale)}</TableCell>
                        <TableCell>
                          <InvoiceStatusChip status={invoice.status} />
                        </TableCell>
                      </>
                    )}
                    <TableCell align="right">
                      <InvoiceLinks invoice={invoice} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={count}
            page={invoices.page - 1}
            rowsPerPage={invoices.pageSize}
            rowsPerPageOptions={sizes}
            onPageChange={(_, page) => void store.loadInvoices(page + 1)}
            onRowsPerPageChange={(e) => void store.loadInvoices(1, Number(e.target.value))}
            labelRowsPerPage={t('ra.navigation.page_rows_per_page')}
            labelDisplayedRows={({ from, to, count: total }) => t('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total })}
            getItemAriaLabel={(type) => t(`ra.navigation.${type}`)}
          />
        </>
      )}
    </Box>
  );
}
