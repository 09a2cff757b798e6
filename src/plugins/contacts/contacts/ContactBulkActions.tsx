import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material';
import { mdiDownload, mdiTagMinusOutline, mdiTagPlusOutline } from '@mdi/js';
import { useListContext, useNotify, useRefresh, useUnselectAll, useUpdateMany } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { httpApiRef, MdiIcon, useApi } from '../../../core';
import { downloadContacts, type ContactListFilter } from '../model/contactQuery';

/** Tag or untag the chosen contacts (PATCH add_tags / remove_tags on each). */
function BulkTagButton({ mode }: { mode: 'add' | 'remove' }) {
  const { t } = useTranslation();
  const { selectedIds } = useListContext();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [updateMany, { isPending }] = useUpdateMany();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselect = useUnselectAll('contacts');
  const apply = () => {
    const tag = name.trim();
    if (!tag) return;
    updateMany(
      'contacts',
      { ids: selectedIds, data: mode === 'add' ? { add_tags: [tag] } : { remove_tags: [tag] } },
      {
        onSuccess: () => {
          notify('contacts.bulk.done', { type: 'success' });
          setOpen(false);
          setName('');
          unselect();
          refresh();
        },
        onError: () => notify('ra.notification.http_error', { type: 'error' }),
      },
    );
  };
  return (
    <>
      <Button size="small" startIcon={<MdiIcon path={mode === 'add' ? mdiTagPlusOutline : mdiTagMinusOutline} fontSize="small" />} onClick={() => setOpen(true)}>
        {t(mode === 'add' ? 'contacts.bulk.tag' : 'contacts.bulk.untag')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} fullWidth maxWidth="xs">
        <DialogTitle>{t(mode === 'add' ? 'contacts.bulk.tagTitle' : 'contacts.bulk.untagTitle', { count: selectedIds.length })}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('contacts.bulk.tagName')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && apply()}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{t('contacts.bulk.cancel')}</Button>
          <Button variant="contained" disableElevation disabled={!name.trim() || isPending} onClick={apply}>
            {t('contacts.bulk.apply')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** The chosen contacts as CSV (the server's export of the current filter, kept to those rows). */
export function BulkExportButton() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const notify = useNotify();
  const { selectedIds, filterValues } = useListContext();
  return (
    <Button
      size="small"
      startIcon={<MdiIcon path={mdiDownload} fontSize="small" />}
      onClick={() => downloadContacts(http, filterValues as ContactListFilter, selectedIds).catch(() => notify('contacts.exportFailed', { type: 'error' }))}
    >
      {t('contacts.bulk.export')}
    </Button>
  );
}

export function ContactBulkActions({ canManage }: { canManage: boolean }) {
  return (
    <>
      {canManage && <BulkTagButton mode="add" />}
      {canManage && <BulkTagButton mode="remove" />}
      <BulkExportButton />
    </>
  );
}
