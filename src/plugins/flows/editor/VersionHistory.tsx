/**
 * Version history (GET /api/flows/{id}/versions/): newest first, who and when, what changed since the
 * version before; restoring one (POST …/versions/{v}/restore/) makes a new version.
 */
import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Divider, Drawer, IconButton, List, ListItem, Stack, Typography } from '@mui/material';
import { mdiClose } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, formatDate, MdiIcon } from '../../../core';
import type { FlowVersion } from '../../../../contract/flows';
import { useFlowVersions } from '../api/hooks';

/** The "what changed" lines of a version. */
export function changeLines(t: (key: string, options?: Record<string, unknown>) => string, v: FlowVersion): string[] {
  const c = v.changes;
  const lines: string[] = [];
  const fields = c.fields.filter((f) => f !== 'steps');
  // The fields in words ("Intro message"), not the contract's names (`intro_msg`).
  if (fields.length) lines.push(t('flows.history.fieldsChanged', { fields: fields.map((f) => t(`flows.history.fieldNames.${f}`, { defaultValue: f })).join(', ') }));
  if (c.steps_added.length) lines.push(t('flows.history.stepsAdded', { steps: c.steps_added.join(', ') }));
  if (c.steps_removed.length) lines.push(t('flows.history.stepsRemoved', { steps: c.steps_removed.join(', ') }));
  if (c.steps_changed.length) lines.push(t('flows.history.stepsChanged', { steps: c.steps_changed.join(', ') }));
  if (c.steps_reordered) lines.push(t('flows.history.stepsReordered'));
  return lines;
}

export function VersionHistory(props: { flowId: number; currentVersion: number; open: boolean; onClose: () => void; canRestore: boolean; blocked: boolean; onRestore: (v: FlowVersion) => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const versions = useFlowVersions(props.flowId, props.open);
  const [confirm, setConfirm] = useState<FlowVersion | null>(null);
  const [pending, setPending] = useState(false);

  return (
    <Drawer anchor="right" open={props.open} onClose={props.onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } }, role: 'dialog', 'aria-labelledby': 'flow-history-title' } as object }}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ p: 2 }}>
        <Typography id="flow-history-title" variant="h6" component="h2">
          {t('flows.history.title')}
        </Typography>
        <IconButton aria-label={t('flows.history.close')} onClick={props.onClose}>
          <MdiIcon path={mdiClose} />
        </IconButton>
      </Stack>
      <Divider />
      {props.blocked && (
        <Alert severity="info" sx={{ m: 2 }}>
          {t('flows.history.unsavedFirst')}
        </Alert>
      )}
      {versions.isPending ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ p: 3, justifyContent: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('flows.history.loading')}</Typography>
        </Stack>
      ) : (
        <List aria-label={t('flows.history.title')} data-testid="flow-versions">
          {(versions.data ?? []).map((v) => {
            const lines = changeLines(t, v);
            const current = v.version === props.currentVersion;
            return (
              <ListItem key={v.id} divider data-testid="flow-version" data-version={v.version} sx={{ display: 'block' }}>
                <Stack direction="row" alignItems="center" justifyContent="space-between" spacing={1}>
                  <Typography variant="subtitle2" component="h3">
                    {t('flows.history.version', { n: v.version })} · {t(`flows.history.kinds.${v.kind}`, { from: v.restored_from ?? '' })}
                    {current && (
                      <Box component="span" sx={{ ml: 1, color: 'success.main' }}>
                        ({t('flows.history.current')})
                      </Box>
                    )}
                  </Typography>
                  {props.canRestore && !current && (
                    <Button size="small" variant="outlined" disabled={props.blocked} onClick={() => setConfirm(v)} sx={{ flexShrink: 0 }}>
                      {t('flows.history.restore', { n: v.version })}
                    </Button>
                  )}
                </Stack>
                <Typography variant="body2" color="text.secondary">
                  {t('flows.history.by', { who: v.created_by, when: formatDate(v.created_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) })}
                </Typography>
                <Typography variant="caption" component="p" sx={{ mt: 0.5, fontWeight: 600 }}>
                  {t('flows.history.changes')}
                </Typography>
                {lines.length === 0 ? (
                  <Typography variant="body2">{t('flows.history.noChanges')}</Typography>
                ) : (
                  <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
                    {lines.map((line) => (
                      <Typography component="li" variant="body2" key={line}>
                        {line}
                      </Typography>
                    ))}
                  </Box>
                )}
              </ListItem>
            );
          })}
        </List>
      )}
      <ConfirmDialog
        open={confirm !== null}
        pending={pending}
        title={t('flows.history.restoreTitle', { n: confirm?.version ?? '' })}
        message={t('flows.history.restoreMessage', { n: confirm?.version ?? '' })}
        confirmLabel={t('flows.history.restoreConfirm')}
        cancelLabel={t('flows.history.restoreCancel')}
        onConfirm={async () => {
          if (!confirm) return;
          setPending(true);
          try {
            await props.onRestore(confirm);
            await versions.refetch();
          } finally {
            setPending(false);
            setConfirm(null);
          }
        }}
        onClose={() => setConfirm(null)}
      />
    </Drawer>
  );
}
