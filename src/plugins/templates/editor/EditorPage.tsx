/**
 * What the template editor and the carousel builder share: opening the number and template named
 * in the URL (?channel=<id>[&template=<id>|&duplicate=<id>]), the loading and "cannot open"
 * states, the form state (touched fields, server field errors, submitting with its alerts), the
 * page shell (heading, Cancel, the form beside the phone preview) and the submit bar.
 */
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, CircularProgress, Grid, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { errorBody, errorText, httpApiRef, useAlert, useApi } from '../../../core';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import type { Channel } from '../../../../contract/channels';
import { createEditorApi } from './api';
import { readEditorQuery } from './paths';

type TargetOptions = {
  /** Why this number cannot be used here (null when it can). */
  check?: (channel: Channel) => string | null;
  /** The template being edited (editing) or duplicated (!editing), once loaded. */
  onSource: (source: WhatsAppTemplate, editing: boolean) => void;
};

/** Loads the number (and the template to edit or duplicate) the URL's query names. */
export function useTemplateTarget(options: TargetOptions) {
  const { t } = useTranslation();
  const location = useLocation();
  const http = useApi(httpApiRef);
  const api = useMemo(() => createEditorApi(http), [http]);
  const query = useMemo(() => readEditorQuery(location.search), [location.search]);
  const handlers = useRef(options);
  handlers.current = options;

  const [channel, setChannel] = useState<Channel | null>(null);
  const [editing, setEditing] = useState<WhatsAppTemplate | null>(null);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    void (async () => {
      setLoading(true);
      setLoadError(null);
      try {
        if (query.channel === null) throw new Error(t('templates.editor.noChannel'));
        const found = await api.channel(query.channel, controller.signal);
        if (!found) throw new Error(t('templates.editor.noChannel'));
        const problem = handlers.current.check?.(found);
        if (problem) throw new Error(problem);
        setChannel(found);
        const sourceId = query.template ?? query.duplicate;
        if (sourceId !== null) {
          const source = await api.template(query.channel, sourceId, controller.signal);
          if (!source) throw new Error(t('templates.editor.notFound'));
          if (query.template !== null) setEditing(source);
          handlers.current.onSource(source, query.template !== null);
        }
      } catch (err) {
        if (!controller.signal.aborted) setLoadError(errorText(err));
      } finally {
        if (!controller.signal.aborted) setLoading(false);
      }
    })();
    return () => controller.abort();
  }, [api, query.channel, query.template, query.duplicate, t]);

  return { api, channel, editing, loading, loadError };
}

/** Touched fields, server field errors and submitting (alerts, then /templates). */
export function useEditorForm(errors: Record<string, string>, editing: boolean) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const alert = useAlert();
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [fromServer, setFromServer] = useState<Record<string, string>>({});

  const errorOf = (field: string): string | null => fromServer[field] ?? (submitted || touched.has(field) ? (errors[field] ?? null) : null);
  /** Marks fields as touched and forgets the server's errors (the draft changed). */
  const changed = (...fields: string[]) => {
    setFromServer({});
    if (fields.length) setTouched((prev) => new Set([...prev, ...fields]));
  };
  const touch = (field: string) => setTouched((prev) => (prev.has(field) ? prev : new Set(prev).add(field)));
  const submit = async (save: () => Promise<unknown>, mapErrors: (body: unknown) => Record<string, string>) => {
    setSubmitted(true);
    if (Object.keys(errors).length > 0) return;
    setSaving(true);
    setFromServer({});
    try {
      await save();
      alert.success(t(editing ? 'templates.editor.updated' : 'templates.editor.created'));
      navigate('/templates');
    } catch (err) {
      const mapped = mapErrors(errorBody(err));
      setFromServer(mapped);
      alert.error(editing ? t('templates.editor.updateError') : (mapped.form ?? Object.values(mapped)[0] ?? errorText(err)));
    } finally {
      setSaving(false);
    }
  };

  return { errorOf, changed, touch, submit, submitted, saving, fromServer, invalidCount: Object.keys(errors).length };
}

export function EditorLoading() {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', p: 6 }}>
      <CircularProgress aria-label={t('templates.editor.loading')} />
    </Box>
  );
}

/** The page keeps its heading when it cannot open (no number chosen, or one that is gone). */
export function EditorLoadError({ title, message }: { title: string; message: string | null }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {title}
      </Typography>
      <Alert severity="error" action={<Button component={RouterLink} to="/templates/template-setup">{t('templates.editor.backToSetup')}</Button>}>
        {message}
      </Alert>
    </Stack>
  );
}

type ShellProps = {
  title: string;
  subtitle: string;
  onSubmit: () => void;
  /** Notices above the form (the server's form-level error comes after them). */
  notices?: ReactNode;
  formError?: string;
  preview: ReactNode;
  children: ReactNode;
};

/** The heading with Cancel, the form on the left and the phone preview on the right. */
export function EditorPageShell({ title, subtitle, onSubmit, notices, formError, preview, children }: ShellProps) {
  const { t } = useTranslation();
  return (
    <Box component="form" noValidate onSubmit={(e) => (e.preventDefault(), onSubmit())} sx={{ p: { xs: 1, md: 2 } }}>
      <Stack direction="row" alignItems="baseline" justifyContent="space-between" flexWrap="wrap" sx={{ mb: 2 }}>
        <Box>
          <Typography variant="h5" component="h1">
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        </Box>
        <Button component={RouterLink} to="/templates">
          {t('templates.editor.cancel')}
        </Button>
      </Stack>
      {notices}
      {formError && <Alert severity="error" sx={{ mb: 2 }}>{formError}</Alert>}
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Stack spacing={3}>{children}</Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Box sx={{ position: { md: 'sticky' }, top: { md: 80 } }}>
            <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1, textAlign: 'center' }}>
              {t('templates.editor.preview.title')}
            </Typography>
            {preview}
          </Box>
        </Grid>
      </Grid>
    </Box>
  );
}

type SubmitBarProps = { label: string; testId: string; saving: boolean; disabled?: boolean; submitted: boolean; invalidCount: number };

/** The submit button (spinning while saving) and how many fields still need fixing. */
export function SubmitBar({ label, testId, saving, disabled = false, submitted, invalidCount }: SubmitBarProps) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={2} alignItems="center">
      <Button
        type="submit"
        variant="contained"
        disableElevation
        disabled={saving || disabled}
        startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
        data-testid={testId}
      >
        {label}
      </Button>
      {submitted && invalidCount > 0 && (
        <Typography variant="body2" role="alert" sx={{ color: (theme) => (theme.palette.mode === 'dark' ? theme.palette.error.light : theme.palette.error.main) }}>
          {t('templates.editor.fixFields', { count: invalidCount })}
        </Typography>
      )}
    </Stack>
  );
}
