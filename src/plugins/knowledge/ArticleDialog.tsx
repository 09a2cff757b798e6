import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { KNOWLEDGE_LIMITS, type KnowledgeItem } from '../../../contract/assistant';
import { errorBody, errorText, useAlert, useApi } from '../../core';
import { knowledgeApiRef } from './api';
import { KNOWLEDGE_QUERY_KEY } from './KnowledgeList';

type FieldErrors = Partial<Record<'title' | 'body', string>>;

function fieldErrorsOf(error: unknown): FieldErrors {
  const body = errorBody(error) as Record<string, unknown> | null;
  const first = (key: string) => (Array.isArray(body?.[key]) ? String((body![key] as unknown[])[0]) : undefined);
  return { title: first('title'), body: first('body') };
}

/** Add an article, or edit an article's or a document's title and text (Markdown); the server answers the new passages. */
export function ArticleDialog({ item, onClose }: { item: KnowledgeItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const api = useApi(knowledgeApiRef);
  const alert = useAlert();
  const queryClient = useQueryClient();
  const [title, setTitle] = useState(item?.title ?? '');
  const [body, setBody] = useState(item?.body ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useMutation({
    mutationFn: () => (item ? api.update(item.id, { title, body }) : api.create({ title, body })),
    onSuccess: async (saved) => {
      alert.success(t('knowledge.article.saved', { count: saved.passages.length }));
      await queryClient.invalidateQueries({ queryKey: KNOWLEDGE_QUERY_KEY });
      onClose();
    },
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      if (!fields.title && !fields.body) alert.error(errorText(error));
    },
  });
  return (
    <Dialog open onClose={save.isPending ? undefined : onClose} fullWidth maxWidth="md" aria-labelledby="knowledge-article-title">
      <DialogTitle id="knowledge-article-title">{item ? t('knowledge.article.editTitle', { title: item.title }) : t('knowledge.article.createTitle')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('knowledge.fields.title')}
            value={title}
            onChange={(e) => setTitle(e.target.value)}
            required
            slotProps={{ htmlInput: { maxLength: KNOWLEDGE_LIMITS.title } }}
            error={!!errors.title}
            helperText={errors.title}
          />
          <TextField
            label={t('knowledge.fields.body')}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            required
            multiline
            minRows={10}
            maxRows={24}
            error={!!errors.body}
            helperText={errors.body}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={save.isPending}>
          {t('knowledge.article.cancel')}
        </Button>
        <Button variant="contained" disableElevation onClick={() => save.mutate()} disabled={save.isPending}>
          {t('knowledge.article.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
