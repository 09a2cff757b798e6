import { useState } from 'react';
import { Alert, Box, Button, IconButton, Paper, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { mdiAccountSearchOutline, mdiDeleteOutline, mdiPencilOutline, mdiPlus } from '@mdi/js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Segment, SegmentCount } from '../../../../contract/segments';
import { ConfirmDialog, EmptyView, httpApiRef, MdiIcon, useAccess, useAccount, useApi } from '../../../core';
import { ContactsTabs } from '../ContactsTabs';
import { SegmentDialog, type SegmentDraft } from './SegmentDialog';
import { useSegments } from './useSegments';

function SavedCount({ id }: { id: number }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const count = useQuery({
    queryKey: ['contacts', 'segments', companyId, id, 'count'],
    queryFn: async ({ signal }) => (await http.get<SegmentCount>(`/api/segments/${id}/count/`, { signal }))?.count ?? 0,
    retry: false,
  });
  if (count.isError) return <>{t('contacts.segments.cannotCount')}</>;
  return <>{count.isSuccess ? t('contacts.segments.count', { count: count.data }) : '…'}</>;
}

/** /segments: the contacts page's Segments tab, the company's saved contact filters and how many contacts each holds now. */
export function SegmentList() {
  const { t } = useTranslation();
  const { canManage } = useAccess('chats');
  const http = useApi(httpApiRef);
  const notify = useNotify();
  const queryClient = useQueryClient();
  const segments = useSegments();
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: ['contacts', 'segments'] });

  const save = async (draft: SegmentDraft) => {
    if (editing === 'new') await http.post('/api/segments/', draft);
    else if (editing) await http.patch(`/api/segments/${editing.id}/`, draft);
    notify(editing === 'new' ? 'contacts.segments.created' : 'contacts.segments.updated', { type: 'success' });
    setEditing(null);
    await reload();
  };
  const remove = async () => {
    if (!deleting) return;
    await http.delete(`/api/segments/${deleting.id}/`);
    notify('contacts.segments.removed', { type: 'success' });
    setDeleting(null);
    await reload();
  };
  const rows = segments.data ?? [];
  return (
    <Box>
      <ContactsTabs current="segments" />
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {t('contacts.segments.subtitle')}
          </Typography>
          {canManage && (
            <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setEditing('new')}>
              {t('contacts.segments.add')}
            </Button>
          )}
        </Box>
        {!canManage && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('contacts.segments.readOnly')}
          </Alert>
        )}
        {segments.isSuccess && rows.length === 0 ? (
          <EmptyView title={t('contacts.segments.title')} message={t('contacts.segments.none')} />
        ) : (
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={t('contacts.segments.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('contacts.segments.name')}</TableCell>
                  <TableCell>{t('contacts.segments.contacts')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>{s.name}</TableCell>
                    <TableCell data-testid={`segment-count-${s.id}`}>
                      <SavedCount id={s.id} />
                    </TableCell>
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <IconButton size="small" component={Link} to={`/contacts?filter=${encodeURIComponent(JSON.stringify({ segment: s.id }))}`} aria-label={t('contacts.segments.view', { name: s.name })}>
                        <MdiIcon path={mdiAccountSearchOutline} fontSize="small" />
                      </IconButton>
                      <IconButton size="small" aria-label={t(canManage ? 'contacts.segments.edit' : 'contacts.segments.open', { name: s.name })} onClick={() => setEditing(s)}>
                        <MdiIcon path={mdiPencilOutline} fontSize="small" />
                      </IconButton>
                      {canManage && (
                        <IconButton size="small" aria-label={t('contacts.segments.delete', { name: s.name })} onClick={() => setDeleting(s)}>
                          <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                        </IconButton>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        )}
      </Box>
      {editing && <SegmentDialog segment={editing === 'new' ? null : editing} readOnly={!canManage} onClose={() => setEditing(null)} onSave={save} />}
      {deleting && (
        <ConfirmDialog
          open
          title={t('contacts.segments.deleteTitle')}
          message={t('contacts.segments.deleteMessage', { name: deleting.name })}
          confirmLabel={t('contacts.segments.deleteConfirm')}
          cancelLabel={t('contacts.segments.cancel')}
          onClose={() => setDeleting(null)}
          onConfirm={() => void remove()}
        />
      )}
    </Box>
  );
}
