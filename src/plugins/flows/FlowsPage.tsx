import { useEffect, useMemo, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, IconButton, InputAdornment, Link, Paper, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { mdiDeleteOutline, mdiMagnify, mdiPencilOutline, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { ConfirmDialog, ConsoleTooltip, EmptyView, formatDate, InlineFacts, MdiIcon, useAccess, useAccount, useAlert, useApi, useIsPhone, visuallyHidden } from '../../core';
import type { Flow } from '../../../contract/flows';
import { flowServiceApiRef, NoBotAccessError } from './api/flowService';
import { flowErrorAlert, logFlowListFailure } from './api/errors';
import { useFlows, useRefreshFlows } from './api/hooks';

export const editPath = (flowName: string) => `/flows/edit/${encodeURIComponent(flowName)}`;
export const branchPath = (flowName: string) => `/flows/branch/${encodeURIComponent(flowName)}`;

/** Case-insensitive search over a flow's name, description and keywords. */
export function matchesFlow(flow: Pick<Flow, 'flow_name' | 'description' | 'keywords'>, term: string): boolean {
  const t = term.trim().toLowerCase();
  if (!t) return true;
  return [flow.flow_name, flow.description, ...(flow.keywords ?? [])].some((v) => v.toLowerCase().includes(t));
}

function DeleteFlowButton({ flow }: { flow: Flow }) {
  const { t } = useTranslation();
  const service = useApi(flowServiceApiRef);
  const alert = useAlert();
  const refresh = useRefreshFlows();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const onConfirm = async () => {
    setPending(true);
    try {
      await service.deleteFlow(flow);
      alert.success(t('flows.delete.success'));
      await refresh();
    } catch (error) {
      alert.error(flowErrorAlert('delete', error));
    } finally {
      setPending(false);
      setOpen(false);
    }
  };
  return (
    <>
      <ConsoleTooltip title={t('flows.delete.action', { name: flow.flow_name })}>
        <IconButton size="small" color="error" aria-label={t('flows.delete.action', { name: flow.flow_name })} onClick={() => setOpen(true)}>
          <MdiIcon path={mdiDeleteOutline} />
        </IconButton>
      </ConsoleTooltip>
      <ConfirmDialog
        open={open}
        pending={pending}
        title={t('flows.delete.title')}
        message={t('flows.delete.message', { name: flow.flow_name })}
        confirmLabel={t('flows.delete.confirm')}
        cancelLabel={t('flows.delete.cancel')}
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

function Keywords({ keywords }: { keywords: Flow['keywords'] }) {
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      {(keywords ?? []).map((k) => (
        <Chip key={k} size="small" label={k} />
      ))}
    </Stack>
  );
}

/** /flows: the company's flows (spec §2): loading indicator, reset and reloaded on a company switch, search, delete. */
export default function FlowsPage() {
  const { t, i18n } = useTranslation();
  const { canManage } = useAccess('flows');
  const { companyId } = useAccount();
  const navigate = useNavigate();
  const flows = useFlows();
  const [term, setTerm] = useState('');
  const phone = useIsPhone();

  // A company switch resets the list's state (its search) while the new company's flows load.
  useEffect(() => setTerm(''), [companyId]);
  useEffect(() => {
    if (flows.error && !(flows.error instanceof NoBotAccessError)) logFlowListFailure(flows.error);
  }, [flows.error]);

  const all = useMemo(() => [...(flows.data ?? [])].sort((a, b) => b.updated_at.localeCompare(a.updated_at)), [flows.data]);
  const shown = all.filter((f) => matchesFlow(f, term));

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', sm: 'row' }} justifyContent="space-between" alignItems={{ sm: 'center' }} spacing={2} sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700}>
            {t('flows.title')}
          </Typography>
          <Typography color="text.secondary">
            {t('flows.subtitle')}
          </Typography>
        </Box>
        {canManage && (
          <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiPlus} />} onClick={() => navigate('/flows/create')}>
            {t('flows.create.action')}
          </Button>
        )}
      </Stack>
      {flows.isPending ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ py: 4, justifyContent: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('flows.loading')}</Typography>
        </Stack>
      ) : flows.error instanceof NoBotAccessError ? (
        <Alert severity="info">{t('flows.noAccess')}</Alert>
      ) : all.length === 0 ? (
        <EmptyView />
      ) : (
        <>
          <TextField
            size="small"
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            label={t('flows.search')}
            sx={{ mb: 2, width: { xs: '100%', sm: 320 } }}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><MdiIcon path={mdiMagnify} /></InputAdornment> } }}
          />
          {shown.length === 0 ? (
            <EmptyView message={t('flows.noMatch', { term })} />
          ) : (
            <TableContainer component={Paper} variant="outlined">
              <Table size="small" aria-label={t('flows.title')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('flows.fields.flow_name')}</TableCell>
                    {!phone && (
                      <>
                        <TableCell>{t('flows.fields.description')}</TableCell>
                        <TableCell>{t('flows.fields.keywords')}</TableCell>
                        <TableCell align="right">{t('flows.fields.steps')}</TableCell>
                        <TableCell>{t('flows.fields.updated_at')}</TableCell>
                      </>
                    )}
                    <TableCell align="right">
                      <Box component="span" sx={visuallyHidden}>{t('flows.fields.actions')}</Box>
                    </TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {shown.map((flow) => (
                    <TableRow key={flow.id} hover data-testid="flow-row">
                      {phone ? (
                        // A phone: the flow in one stacked cell, nothing scrolled sideways.
                        <TableCell>
                          <Stack spacing={0.75}>
                            <Link component={RouterLink} to={editPath(flow.flow_name)} fontWeight={600} underline="hover">
                              {flow.flow_name}
                            </Link>
                            {flow.description && <Typography variant="body2">{flow.description}</Typography>}
                            <Keywords keywords={flow.keywords} />
                            <InlineFacts
                              facts={[
                                { label: t('flows.fields.steps'), value: flow.steps?.length ?? 0 },
                                { label: t('flows.fields.updated_at'), value: formatDate(flow.updated_at, i18n.language, { dateStyle: 'medium' }) },
                              ]}
                            />
                          </Stack>
                        </TableCell>
                      ) : (
                        <>
                          <TableCell>
                            <Link component={RouterLink} to={editPath(flow.flow_name)} fontWeight={600} underline="hover">
                              {flow.flow_name}
                            </Link>
                          </TableCell>
                          <TableCell>{flow.description}</TableCell>
                          <TableCell>
                            <Keywords keywords={flow.keywords} />
                          </TableCell>
                          <TableCell align="right">{flow.steps?.length ?? 0}</TableCell>
                          <TableCell>{formatDate(flow.updated_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' })}</TableCell>
                        </>
                      )}
                      <TableCell align="right">
                        <Stack direction="row" spacing={0.5} justifyContent="flex-end">
                          <ConsoleTooltip title={t('flows.open', { name: flow.flow_name })}>
                            <IconButton size="small" aria-label={t('flows.open', { name: flow.flow_name })} onClick={() => navigate(editPath(flow.flow_name))}>
                              <MdiIcon path={mdiPencilOutline} />
                            </IconButton>
                          </ConsoleTooltip>
                          {canManage && <DeleteFlowButton flow={flow} />}
                        </Stack>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </>
      )}
    </Box>
  );
}

