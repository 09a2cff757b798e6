import { useState } from 'react';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog, errorText, useAlert, useApi } from '../../core';
import { knowledgeApiRef } from './api';
import { ArticleDialog } from './ArticleDialog';
import { KNOWLEDGE_QUERY_KEY } from './KnowledgeList';

/** One knowledge item: what it says and the passages it became; edit and delete for those who manage. */
export function ItemDialog({ id, canManage, onClose }: { id: number; canManage: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const api = useApi(knowledgeApiRef);
  const alert = useAlert();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const item = useQuery({ queryKey: [...KNOWLEDGE_QUERY_KEY, 'item', id], queryFn: ({ signal }) => api.get(id, signal), retry: false });
  const remove = useMutation({
    mutationFn: () => api.remove(id),
    onSuccess: async () => {
      alert.success(t('knowledge.remove.done'));
      await queryClient.invalidateQueries({ queryKey: KNOWLEDGE_QUERY_KEY });
      onClose();
    },
    onError: (error) => alert.error(errorText(error)),
  });
  const data = item.data;
  const editable = canManage && data && data.kind !== 'flow';

  return (
    <>
      <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="knowledge-item-title">
        <DialogTitle id="knowledge-item-title">{data?.title ?? t('knowledge.loading')}</DialogTitle>
        <DialogContent dividers>
          {item.isPending ? (
            <CircularProgress size={20} aria-label={t('knowledge.loading')} />
          ) : item.error ? (
            <Alert severity="error">{t('knowledge.loadFailed', { error: errorText(item.error) })}</Alert>
          ) : (
            <>
              {data!.kind === 'flow' && (
                <Alert severity="info" sx={{ mb: 2 }}>
                  {t('knowledge.item.fromFlow')}
                </Alert>
              )}
              {data!.file_name && (
                <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                  {t('knowledge.item.file', { name: data!.file_name })}
                </Typography>
              )}
              <Typography variant="subtitle1" component="h2" fontWeight={600}>
                {t('knowledge.item.passages', { count: data!.passages.length })}
              </Typography>
              <List dense aria-label={t('knowledge.item.passages', { count: data!.passages.length })}>
                {data!.passages.map((p) => (
                  <ListItem key={p.id} divider alignItems="flex-start">
                    <ListItemText
                      primary={t('knowledge.item.passage', { number: p.position + 1, heading: p.heading })}
                      secondary={<Box component="span" sx={{ whiteSpace: 'pre-wrap' }}>{p.text}</Box>}
                    />
                  </ListItem>
                ))}
              </List>
            </>
          )}
        </DialogContent>
        <DialogActions>
          {editable && (
            <>
              <Button color="error" onClick={() => setDeleting(true)}>
                {t('knowledge.item.delete')}
              </Button>
              <Button onClick={() => setEditing(true)}>
                {t('knowledge.item.edit')}
              </Button>
            </>
          )}
          <Button onClick={onClose}>
            {t('knowledge.item.close')}
          </Button>
        </DialogActions>
      </Dialog>
      {editing && data && <ArticleDialog item={data} onClose={() => setEditing(false)} />}
      <ConfirmDialog
        open={deleting}
        title={t('knowledge.remove.title', { title: data?.title ?? '' })}
        message={t('knowledge.remove.message')}
        confirmLabel={t('knowledge.remove.confirm')}
        cancelLabel={t('knowledge.remove.cancel')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setDeleting(false)}
      />
    </>
  );
}
