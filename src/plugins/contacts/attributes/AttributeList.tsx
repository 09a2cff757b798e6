import { useState } from 'react';
import { Alert, Box, Button, Chip, IconButton, Paper, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { mdiDeleteOutline, mdiPencilOutline, mdiPlus } from '@mdi/js';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { ContactAttribute } from '../../../../contract/contacts';
import { ConfirmDialog, ConsoleTooltip, EmptyView, httpApiRef, MdiIcon, useAccess, useApi, useIsPhone } from '../../../core';
import { ContactsTabs } from '../ContactsTabs';
import { useAttributes } from '../model/hooks';
import { AttributeDialog, type AttributeDraft } from './AttributeDialog';

function Options({ options }: { options: string[] }) {
  return (
    <Box>
      {options.map((o) => (
        <Chip key={o} size="small" label={o} sx={{ mr: 0.5, mb: 0.5 }} />
      ))}
    </Box>
  );
}

/** /contact-attributes: the contacts page's Attributes tab, where the company defines its contacts' custom fields. */
export function AttributeList() {
  const { t } = useTranslation();
  const { canManage } = useAccess('chats');
  const http = useApi(httpApiRef);
  const notify = useNotify();
  const queryClient = useQueryClient();
  const attributes = useAttributes();
  const [editing, setEditing] = useState<ContactAttribute | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ContactAttribute | null>(null);
  const phone = useIsPhone();
  const reload = () => queryClient.invalidateQueries({ queryKey: ['contacts', 'attributes'] });

  const save = async (draft: AttributeDraft) => {
    if (editing === 'new') await http.post('/api/contact-attributes/', draft);
    else if (editing) await http.patch(`/api/contact-attributes/${editing.id}/`, { name: draft.name, ...(editing.type === 'list' ? { options: draft.options } : {}) });
    notify(editing === 'new' ? 'contacts.attributes.created' : 'contacts.attributes.updated', { type: 'success' });
    setEditing(null);
    await reload();
  };
  const remove = async () => {
    if (!deleting) return;
    await http.delete(`/api/contact-attributes/${deleting.id}/`);
    notify('contacts.attributes.removed', { type: 'success' });
    setDeleting(null);
    await reload();
  };
  const rows = attributes.data ?? [];
  return (
    <Box>
      <ContactsTabs current="attributes" />
      <Box sx={{ p: { xs: 2, md: 3 } }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1 }}>
            {t('contacts.attributes.subtitle')}
          </Typography>
          {canManage && (
            <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setEditing('new')}>
              {t('contacts.attributes.add')}
            </Button>
          )}
        </Box>
        {!canManage && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {t('contacts.attributes.readOnly')}
          </Alert>
        )}
        {attributes.isSuccess && rows.length === 0 ? (
          <EmptyView title={t('contacts.attributes.title')} message={t('contacts.attributes.none')} />
        ) : (
          <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
            <Table size="small" aria-label={t('contacts.attributes.title')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('contacts.attributes.name')}</TableCell>
                  {!phone && (
                    <>
                      <TableCell>{t('contacts.attributes.key')}</TableCell>
                      <TableCell>{t('contacts.attributes.type')}</TableCell>
                      <TableCell>{t('contacts.attributes.options')}</TableCell>
                    </>
                  )}
                  {canManage && <TableCell />}
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((a) => (
                  <TableRow key={a.id}>
                    {phone ? (
                      // A phone: the key, type and options under the name, nothing scrolled sideways.
                      <TableCell>
                        <Stack spacing={0.5}>
                          <Typography variant="body2" fontWeight={600}>
                            {a.name}
                          </Typography>
                          <Typography variant="caption" color="text.secondary">
                            <code>{a.key}</code> · {t(`contacts.attributes.types.${a.type}`)}
                          </Typography>
                          {a.options.length > 0 && <Options options={a.options} />}
                        </Stack>
                      </TableCell>
                    ) : (
                      <>
                        <TableCell>{a.name}</TableCell>
                        <TableCell>
                          <code>{a.key}</code>
                        </TableCell>
                        <TableCell>{t(`contacts.attributes.types.${a.type}`)}</TableCell>
                        <TableCell>
                          <Options options={a.options} />
                        </TableCell>
                      </>
                    )}
                    {canManage && (
                      <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                        <ConsoleTooltip title={t('contacts.attributes.edit', { name: a.name })}>
                          <IconButton size="small" aria-label={t('contacts.attributes.edit', { name: a.name })} onClick={() => setEditing(a)}>
                            <MdiIcon path={mdiPencilOutline} fontSize="small" />
                          </IconButton>
                        </ConsoleTooltip>
                        <IconButton size="small" aria-label={t('contacts.attributes.delete', { name: a.name })} onClick={() => setDeleting(a)}>
                          <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                        </IconButton>
                      </TableCell>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Paper>
        )}
      </Box>
      {editing && <AttributeDialog attribute={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSave={save} />}
      {deleting && (
        <ConfirmDialog
          open
          title={t('contacts.attributes.deleteTitle')}
          message={t('contacts.attributes.deleteMessage', { name: deleting.name, key: deleting.key })}
          confirmLabel={t('contacts.attributes.deleteConfirm')}
          cancelLabel={t('contacts.attributes.cancel')}
          onClose={() => setDeleting(null)}
          onConfirm={() => void remove()}
        />
      )}
    </Box>
  );
}
