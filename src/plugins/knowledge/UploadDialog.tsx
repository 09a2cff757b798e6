import { useId, useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { firstErrorMessage } from '../../../contract/errors';
import { useAlert, useApi } from '../../core';
import { knowledgeApiRef, UploadError } from './api';
import { KNOWLEDGE_QUERY_KEY } from './KnowledgeList';

/** Upload a PDF, Markdown or text file: progress while the bytes go up, then while the server reads it. */
export function UploadDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const api = useApi(knowledgeApiRef);
  const alert = useAlert();
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) => api.upload(chosen, title, setProgress),
    onSuccess: async (item) => {
      alert.success(t('knowledge.upload.done', { title: item.title, count: item.passages.length }));
      await queryClient.invalidateQueries({ queryKey: KNOWLEDGE_QUERY_KEY });
      onClose();
    },
    onError: (failure) => {
      setProgress(null);
      setError((failure instanceof UploadError ? firstErrorMessage(failure.body) : firstErrorMessage((failure as { body?: unknown }).body)) ?? t('knowledge.upload.failed'));
    },
  });
  const sending = upload.isPending;
  return (
    <Dialog open onClose={sending ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="knowledge-upload-title">
      <DialogTitle id="knowledge-upload-title">{t('knowledge.upload.title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            {t('knowledge.upload.hint')}
          </Typography>
          <Stack direction="row" spacing={2} alignItems="center">
            <Button component="label" htmlFor={inputId} variant="outlined" disabled={sending}>
              {t('knowledge.upload.choose')}
              <input
                id={inputId}
                data-testid="knowledge-file"
                type="file"
                hidden
                accept=".pdf,.md,.markdown,.txt,application/pdf,text/markdown,text/plain"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  setError(null);
                }}
              />
            </Button>
            <Typography variant="body2">{file?.name ?? t('knowledge.upload.none')}</Typography>
          </Stack>
          <TextField label={t('knowledge.fields.optionalTitle')} value={title} onChange={(e) => setTitle(e.target.value)} disabled={sending} />
          {sending && (
            <Stack spacing={1} role="status">
              <LinearProgress variant={progress !== null && progress < 1 ? 'determinate' : 'indeterminate'} value={Math.round((progress ?? 0) * 100)} aria-label={t('knowledge.upload.title')} />
              <Typography variant="body2">{progress !== null && progress < 1 ? t('knowledge.upload.sending', { percent: Math.round(progress * 100) }) : t('knowledge.upload.reading')}</Typography>
            </Stack>
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={sending}>
          {t('knowledge.upload.cancel')}
        </Button>
        <Button variant="contained" disableElevation disabled={!file || sending} onClick={() => file && upload.mutate(file)}>
          {t('knowledge.upload.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
