/**
 * Form pieces shared by the template editor and the carousel builder: a text field with its
 * character counter and inline error, a text with variable chips (insert the next {{n}} at the
 * cursor) and one example field per variable, and a media sample upload with progress.
 */
import { useRef, useState, type ChangeEvent } from 'react';
import { Box, Button, Chip, FormHelperText, LinearProgress, Stack, TextField, Typography, type TextFieldProps } from '@mui/material';
import { mdiCodeBraces, mdiUpload } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { errorText, MdiIcon } from '../../../core';
import { TEMPLATE_MEDIA_MAX_BYTES, TEMPLATE_MEDIA_TYPES } from '../../../../contract/templates';
import type { TemplateMediaHandle } from '../../../../contract/templates';
import { examplesFor, highestVariable, insertVariable, renumberVariables, type MediaDraft, type MediaFormat } from './model';

type CountedProps = Omit<TextFieldProps, 'onChange' | 'value' | 'error'> & {
  value: string;
  onChange: (value: string) => void;
  limit?: number;
  error?: string | null;
  hint?: string;
};

/** A text field with `used/limit` under it and its error (or hint) beside the counter. */
export function CountedField({ value, onChange, limit, error, hint, ...props }: CountedProps) {
  return (
    <TextField
      {...props}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={!!error}
      fullWidth
      // A locked field's hint stays readable (MUI greys disabled helper texts below WCAG contrast).
      slotProps={{ ...props.slotProps, formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
      helperText={
        <Box component="span" sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
          <span>{error || hint || ''}</span>
          {limit !== undefined && (
            <Box component="span" data-testid="counter" sx={{ whiteSpace: 'nowrap', color: value.length > limit ? 'error.main' : undefined }}>
              {value.length}/{limit}
            </Box>
          )}
        </Box>
      }
    />
  );
}

interface VariableTextProps {
  label: string;
  value: string;
  examples: string[];
  onChange: (value: string, examples: string[]) => void;
  onBlur?: () => void;
  limit: number;
  error?: string | null;
  examplesError?: (index: number | null) => string | null | undefined;
  hint?: string;
  multiline?: boolean;
  /** At most this many variables (a header has one). */
  maxVariables?: number;
  testId: string;
}

/** A text with variables: the "Add variable" chip inserts the next {{n}} at the cursor; each variable gets its example field. */
export function VariableText({ label, value, examples, onChange, onBlur, limit, error, examplesError, hint, multiline, maxVariables, testId }: VariableTextProps) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement | HTMLTextAreaElement | null>(null);
  const count = highestVariable(value);
  const canAdd = maxVariables === undefined || count < maxVariables;
  const list = examplesFor(value, examples);

  const add = () => {
    const el = input.current;
    const start = el?.selectionStart ?? value.length;
    const end = el?.selectionEnd ?? start;
    const next = insertVariable(value, start, end);
    onChange(next.text, examplesFor(next.text, examples));
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(next.cursor, next.cursor);
    });
  };
  const renumber = () => {
    const next = renumberVariables(value, examples);
    onChange(next.text, next.examples);
  };
  const gap = error && /numbered from \{\{1\}\}/.test(error);

  return (
    <Stack spacing={1} data-testid={testId}>
      <CountedField
        label={label}
        value={value}
        onChange={(text) => onChange(text, examplesFor(text, examples))}
        onBlur={onBlur}
        inputRef={input}
        multiline={multiline}
        minRows={multiline ? 4 : undefined}
        limit={limit}
        error={error}
        hint={hint}
      />
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Chip
          icon={<MdiIcon path={mdiCodeBraces} />}
          label={t('templates.editor.variables.add', { next: `{{${count + 1}}}` })}
          onClick={add}
          disabled={!canAdd}
          variant="outlined"
          color="primary"
          size="small"
          data-testid={`${testId}-add-variable`}
        />
        {gap && (
          <Button size="small" onClick={renumber}>
            {t('templates.editor.variables.renumber')}
          </Button>
        )}
      </Stack>
      {list.length > 0 && (
        <Stack spacing={1} sx={{ pl: 2, borderLeft: '3px solid', borderColor: 'divider' }}>
          <Typography variant="caption" color="text.secondary">
            {t('templates.editor.variables.examplesHelp')}
          </Typography>
          {list.map((example, i) => {
            const fieldError = examplesError?.(i);
            return (
              <TextField
                key={i}
                size="small"
                label={t('templates.editor.variables.example', { variable: `{{${i + 1}}}` })}
                value={example}
                onChange={(e) => onChange(value, list.map((v, j) => (j === i ? e.target.value : v)))}
                error={!!fieldError}
                helperText={fieldError || undefined}
                inputProps={{ 'data-testid': `${testId}-example-${i + 1}` }}
              />
            );
          })}
          {examplesError?.(null) && <FormHelperText error>{examplesError(null)}</FormHelperText>}
        </Stack>
      )}
    </Stack>
  );
}

interface MediaUploadProps {
  format: MediaFormat;
  media: MediaDraft | null;
  onChange: (media: MediaDraft | null) => void;
  upload: (file: File, onProgress: (fraction: number) => void) => Promise<TemplateMediaHandle>;
  error?: string | null;
  testId: string;
  disabled?: boolean;
}

/** Picks a sample file, uploads it with a progress bar, then waits for Meta's handle. */
export function MediaUpload({ format, media, onChange, upload, error, testId, disabled }: MediaUploadProps) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [phase, setPhase] = useState<'idle' | 'uploading' | 'meta'>('idle');
  const [failure, setFailure] = useState<string | null>(null);
  const types: readonly string[] = TEMPLATE_MEDIA_TYPES[format];
  const maxMb = TEMPLATE_MEDIA_MAX_BYTES[format] / (1024 * 1024);

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setFailure(null);
    if (!types.includes(file.type)) return setFailure(t('templates.editor.media.wrongType', { types: types.join(', ') }));
    if (file.size > TEMPLATE_MEDIA_MAX_BYTES[format]) return setFailure(t('templates.editor.media.tooBig', { max: maxMb }));
    setPhase('uploading');
    setProgress(0);
    try {
      const answer = await upload(file, (fraction) => {
        setProgress(Math.round(fraction * 100));
        if (fraction >= 1) setPhase('meta');
      });
      const previewUrl = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
      onChange({ handle: answer.handle, previewUrl, fileName: file.name, fileType: answer.file_type });
    } catch (err) {
      setFailure(errorText(err, t('templates.editor.media.failed')));
    } finally {
      setPhase('idle');
      setProgress(null);
    }
  };

  const busy = phase !== 'idle';
  const message = failure || error;
  return (
    <Stack spacing={1} data-testid={testId}>
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap" useFlexGap>
        <Button component="label" variant="outlined" startIcon={<MdiIcon path={mdiUpload} />} disabled={busy || disabled}>
          {t(media ? 'templates.editor.media.replace' : 'templates.editor.media.upload', { format: t(`templates.editor.header.formats.${format}`) })}
          <input hidden type="file" accept={types.join(',')} onChange={choose} data-testid={`${testId}-input`} />
        </Button>
        {media && !busy && (
          <>
            <Typography variant="body2" data-testid={`${testId}-done`}>
              {media.fileName || t('templates.editor.media.current')}
            </Typography>
            <Button size="small" color="inherit" onClick={() => onChange(null)} disabled={disabled}>
              {t('templates.editor.media.remove')}
            </Button>
          </>
        )}
      </Stack>
      {busy && (
        <Box>
          <LinearProgress variant={phase === 'meta' ? 'indeterminate' : 'determinate'} value={progress ?? 0} aria-label={t('templates.editor.media.progress')} />
          <Typography variant="caption" color="text.secondary">
            {phase === 'meta' ? t('templates.editor.media.toMeta') : t('templates.editor.media.uploading', { percent: progress ?? 0 })}
          </Typography>
        </Box>
      )}
      <FormHelperText error={!!message}>{message || t('templates.editor.media.help', { types: types.join(', '), max: maxMb })}</FormHelperText>
    </Stack>
  );
}
