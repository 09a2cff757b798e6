/**
 * The bot's published versions (GET /api/bots/{id}/versions/, issue #25), newest first and paged:
 * who published each and when, the live one marked; restoring one (POST …/versions/{v}/restore/)
 * brings it back as the draft, which Publish then makes live. Laid out like the flows' history.
 */
import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Divider, Drawer, IconButton, List, ListItem, Stack, Typography } from '@mui/material';
import { mdiClose } from '@mdi/js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, formatDate, MdiIcon, useAccount, useAlert, useApi } from '../../../core';
import { BOT_VERSIONS_PAGE_SIZE, type BotDraft, type BotVersion } from '../../../../contract/botDrafts';
import { botServiceApiRef } from '../api/botService';
import { BOTS_QUERY_KEY } from '../api/hooks';
import { botErrorText } from '../api/errors';

export function VersionsDrawer(props: { botId: number; open: boolean; onClose: () => void; canRestore: boolean; beforeRestore: () => Promise<void>; onRestored: (draft: BotDraft) => void }) {
  const { t, i18n } = useTranslation();
  const alert = useAlert();
  const service = useApi(botServiceApiRef);
  const { companyId } = useAccount();
  const [page, setPage] = useState(1);
  const [confirm, setConfirm] = useState<BotVersion | null>(null);
  const [pending, setPending] = useState(false);
  const versions = useQuery({
    queryKey: [...BOTS_QUERY_KEY, 'versions', companyId, props.botId, page],
    queryFn: () => service.versions(props.botId, page, BOT_VERSIONS_PAGE_SIZE),
    enabled: props.open,
    retry: false,
    refetchOnMount: 'always',
  });
  const pages = Math.max(1, Math.ceil((versions.data?.count ?? 0) / BOT_VERSIONS_PAGE_SIZE));

  const restore = async () => {
    if (!confirm) return;
    setPending(true);
    try {
      await props.beforeRestore();
      const draft = await service.restoreVersion(props.botId, confirm.id);
      props.onRestored(draft);
      alert.success(t('bots.draft.restored', { n: confirm.version }));
      props.onClose();
    } catch (error) {
      alert.error(t('bots.draft.restoreError', { error: botErrorText(error) }));
    } finally {
      setPending(false);
      setConfirm(null);
    }
  };

  return (
    <Drawer anchor="right" open={props.open} onClose={props.onClose} slotProps={{ paper: { sx: { width: { xs: '100%', sm: 420 } }, role: 'dialog', 'aria-labelledby': 'bot-versions-title' } as object }}>
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ p: 2 }}>
        <Typography id="bot-versions-title" variant="h6" component="h2">
          {t('bots.draft.versionsTitle')}
        </Typography>
        <IconButton aria-label={t('bots.draft.close')} onClick={props.onClose}>
          <MdiIcon path={mdiClose} />
        </IconButton>
      </Stack>
      <Divider />
      {versions.isPending ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ p: 3, justifyContent: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('bots.draft.versionsLoading')}</Typography>
        </Stack>
      ) : versions.error ? (
        <Alert severity="error" sx={{ m: 2 }}>
          {t('bots.draft.versionsError', { error: botErrorText(versions.error) })}
        </Alert>
      ) : versions.data.results.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 3 }} data-testid="bot-versions-empty">
          {t('bots.draft.versionsEmpty')}
        </Typography>
      ) : (
        <List aria-label={t('bots.draft.versionsTitle')} data-testid="bot-versions">
          {versions.data.results.map((v) => (
            <ListItem key={v.id} divider data-testid="bot-version" data-version={v.version} sx={{ display: 'block' }}>
              <Stack direction="row" alignItems="center" justifyContent="space-between" spacing={1}>
                <Typography variant="subtitle2" component="h3">
                  {t('bots.draft.version', { n: v.version })} · {t(`bots.draft.kinds.${v.kind}`)}
                  {v.restored_from !== null && ` (${t('bots.draft.restoredFrom', { from: v.restored_from })})`}
                  {v.live && (
                    <Box component="span" sx={{ ml: 1, color: 'success.main' }}>
                      ({t('bots.draft.live')})
                    </Box>
                  )}
                </Typography>
                {props.canRestore && (
                  <Button size="small" variant="outlined" onClick={() => setConfirm(v)} sx={{ flexShrink: 0 }}>
                    {t('bots.draft.restore', { n: v.version })}
                  </Button>
                )}
              </Stack>
              <Typography variant="body2" color="text.secondary">
                {t('bots.draft.by', { who: v.created_by, when: formatDate(v.created_at, i18n.language, { dateStyle: 'medium', timeStyle: 'short' }) })} ·{' '}
                {t('bots.draft.stepsCount', { count: v.steps_count })}
              </Typography>
            </ListItem>
          ))}
        </List>
      )}
      {pages > 1 && (
        <Stack direction="row" spacing={1} alignItems="center" justifyContent="space-between" sx={{ p: 2 }}>
          <Button size="small" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            {t('bots.draft.previous')}
          </Button>
          <Typography variant="caption">{t('bots.draft.page', { page, pages })}</Typography>
          <Button size="small" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
            {t('bots.draft.next')}
          </Button>
        </Stack>
      )}
      <ConfirmDialog
        open={confirm !== null}
        pending={pending}
        title={t('bots.draft.restoreTitle', { n: confirm?.version ?? '' })}
        message={t('bots.draft.restoreMessage', { n: confirm?.version ?? '' })}
        confirmLabel={t('bots.draft.restoreConfirm')}
        cancelLabel={t('bots.draft.restoreCancel')}
        onConfirm={restore}
        onClose={() => setConfirm(null)}
      />
    </Drawer>
  );
}
