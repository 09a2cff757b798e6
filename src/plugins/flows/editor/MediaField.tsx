import { useId, useRef, useState } from 'react';
import { Box, Button, CircularProgress, IconButton, Stack, TextField } from '@mui/material';
import { mdiClose, mdiUpload } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, httpApiRef, MdiIcon, useAlert, useApi } from '../../../core';
import { uploadMedia } from '../../../core/media/upload';
import { translateRule } from '../model/validation';

/** A media URL: typed, or a file uploaded like the bots' step media (presigned URL, then `/media/…`). */
export function MediaField(props: { label: string; value: string; onChange: (url: string) => void; problem?: string | null; readOnly: boolean; testId: string }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [uploading, setUploading] = useState(false);
  const problem = translateRule(t, props.problem);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setUploading(true);
    try {
      props.onChange(await uploadMedia(http, file));
    } catch (error) {
      alert.error(t('flows.editor.media.failed', { error: error instanceof Error ? error.message : String(error) }));
    } finally {
      setUploading(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'flex-start' }} data-testid={props.testId}>
      <TextField
        size="small"
        fullWidth
        label={props.label}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
        error={!!problem}
        helperText={problem ?? undefined}
        disabled={props.readOnly}
        slotProps={{ htmlInput: { inputMode: 'url' } }}
      />
      <Box component="input" ref={input} id={inputId} type="file" accept="image/*,video/*,audio/*,application/pdf" hidden aria-label={t('flows.editor.media.upload')} onChange={(e: React.ChangeEvent<HTMLInputElement>) => void onFile(e.target.files?.[0])} />
      <Button
        variant="outlined"
        size="medium"
        disabled={props.readOnly || uploading}
        onClick={() => input.current?.click()}
        startIcon={uploading ? <CircularProgress size={16} aria-hidden /> : <MdiIcon path={mdiUpload} />}
        sx={{ whiteSpace: 'nowrap', flexShrink: 0 }}
      >
        {uploading ? t('flows.editor.media.uploading') : t('flows.editor.media.upload')}
      </Button>
      {props.value && (
        <ConsoleTooltip title={t('flows.editor.media.remove')}>
          <IconButton aria-label={t('flows.editor.media.remove')} disabled={props.readOnly} onClick={() => props.onChange('')}>
            <MdiIcon path={mdiClose} />
          </IconButton>
        </ConsoleTooltip>
      )}
    </Stack>
  );
}
