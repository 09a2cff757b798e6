import { useEffect, useState, type ReactNode } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  InputLabel,
  MenuItem,
  Paper,
  Select,
  Slider,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ASSISTANT_PROVIDERS, KNOWLEDGE_LIMITS, type AskResponse, type AssistantSettings, type AssistantSettingsPatch } from '../../../contract/assistant';
import { errorBody, errorText, useAccount, useAlert, useApi } from '../../core';
import { knowledgeApiRef } from './api';

/** The assistant tab: its settings (read-only without manage) and "Try a question". */
export function AssistantPanel({ canManage }: { canManage: boolean }) {
  return (
    <Stack spacing={3} direction={{ xs: 'column', lg: 'row' }} alignItems="flex-start">
      <SettingsForm canManage={canManage} />
      <TryQuestion />
    </Stack>
  );
}

type Draft = Omit<AssistantSettings, 'api_key_set'> & { api_key: string };

function SettingsForm({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation();
  const api = useApi(knowledgeApiRef);
  const alert = useAlert();
  const { companyId } = useAccount();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['knowledge', 'settings', companyId], queryFn: ({ signal }) => api.settings(signal), retry: false });
  const channels = useQuery({ queryKey: ['knowledge', 'channels', companyId], queryFn: ({ signal }) => api.channels(signal), retry: false });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    if (settings.data) {
      const { api_key_set: _set, ...rest } = settings.data;
      setDraft({ ...rest, api_key: '' });
    }
  }, [settings.data]);
  const save = useMutation({
    mutationFn: (patch: AssistantSettingsPatch) => api.saveSettings(patch),
    onSuccess: (saved) => {
      setErrors({});
      alert.success(t('knowledge.settings.saved'));
      queryClient.setQueryData(['knowledge', 'settings', companyId], saved);
    },
    onError: (error) => {
      const body = (errorBody(error) ?? {}) as Record<string, unknown>;
      const fields = Object.fromEntries(Object.entries(body).filter(([, v]) => Array.isArray(v)).map(([k, v]) => [k, String((v as unknown[])[0])]));
      setErrors(fields);
      if (Object.keys(fields).length === 0) alert.error(errorText(error));
    },
  });

  if (settings.isPending || !draft) {
    // The same outlined section while loading, so "Try a question" beside it keeps its place and width: a
    // click aimed at Ask while the settings arrive must not land where the button was a moment before.
    return (
      <SettingsSection>
        {settings.error ? <Alert severity="error">{t('knowledge.loadFailed', { error: errorText(settings.error) })}</Alert> : <CircularProgress size={20} aria-label={t('knowledge.loading')} />}
      </SettingsSection>
    );
  }
  const keySet = settings.data?.api_key_set ?? false;
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value });
  const disabled = !canManage || save.isPending;
  const submit = (removeKey = false) => {
    const { api_key, ...rest } = draft;
    save.mutate({ ...rest, ...(removeKey ? { api_key: null } : api_key ? { api_key } : {}) });
  };
  const remote = draft.provider === 'openai-compatible';

  return (
    <SettingsSection>
      <Stack spacing={2}>
        <FormControl disabled={disabled}>
          <InputLabel id="assistant-provider-label">{t('knowledge.settings.provider')}</InputLabel>
          <Select labelId="assistant-provider-label" label={t('knowledge.settings.provider')} value={draft.provider} onChange={(e) => set('provider', e.target.value as Draft['provider'])}>
            {ASSISTANT_PROVIDERS.map((p) => (
              <MenuItem key={p} value={p}>
                {t(`knowledge.settings.providers.${p}`)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        {remote && (
          <>
            <TextField label={t('knowledge.settings.baseUrl')} value={draft.base_url} onChange={(e) => set('base_url', e.target.value)} disabled={disabled} error={!!errors.base_url} helperText={errors.base_url ?? t('knowledge.settings.baseUrlHint')} />
            <TextField label={t('knowledge.settings.model')} value={draft.model} onChange={(e) => set('model', e.target.value)} disabled={disabled} error={!!errors.model} helperText={errors.model} />
            <TextField
              label={t('knowledge.settings.apiKey')}
              type="password"
              autoComplete="new-password"
              value={draft.api_key}
              onChange={(e) => set('api_key', e.target.value)}
              disabled={disabled}
              error={!!errors.api_key}
              helperText={errors.api_key ?? (keySet ? t('knowledge.settings.apiKeySet') : t('knowledge.settings.apiKeyNone'))}
            />
            {keySet && canManage && (
              <Box>
                <Button size="small" onClick={() => submit(true)} disabled={disabled}>
                  {t('knowledge.settings.removeKey')}
                </Button>
              </Box>
            )}
          </>
        )}
        <Box>
          <Typography id="assistant-threshold-label" variant="body2" gutterBottom>
            {t('knowledge.settings.threshold')}: {Math.round(draft.threshold * 100)} %
          </Typography>
          <Slider aria-labelledby="assistant-threshold-label" min={0} max={1} step={0.05} value={draft.threshold} onChange={(_e, v) => set('threshold', v as number)} disabled={disabled} />
          <Typography variant="caption" color="text.secondary">
            {t('knowledge.settings.thresholdHint')}
          </Typography>
        </Box>
        <FormControlLabel control={<Switch checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} disabled={disabled} />} label={t('knowledge.settings.enabled')} />
        <FormControl component="fieldset" disabled={disabled} error={!!errors.channels}>
          <FormLabel component="legend">{t('knowledge.settings.channels')}</FormLabel>
          {(channels.data ?? []).length === 0 ? (
            <Typography variant="body2" color="text.secondary">
              {t('knowledge.settings.noChannels')}
            </Typography>
          ) : (
            <FormGroup>
              {channels.data!.map((c) => (
                <FormControlLabel
                  key={c.id}
                  control={
                    <Checkbox
                      checked={draft.channels.includes(c.id)}
                      onChange={(e) => set('channels', e.target.checked ? [...draft.channels, c.id] : draft.channels.filter((id) => id !== c.id))}
                    />
                  }
                  label={c.name}
                />
              ))}
            </FormGroup>
          )}
          {errors.channels && <Typography variant="caption" color="error">{errors.channels}</Typography>}
        </FormControl>
        {canManage && (
          <Box>
            <Button variant="contained" disableElevation onClick={() => submit()} disabled={disabled}>
              {t('knowledge.settings.save')}
            </Button>
          </Box>
        )}
      </Stack>
    </SettingsSection>
  );
}

/** The settings' outlined section and heading, the same whether the settings are loading, failed or shown. */
function SettingsSection({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, width: '100%' }} component="section" aria-labelledby="assistant-settings-title">
      <Typography id="assistant-settings-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('knowledge.settings.title')}
      </Typography>
      {children}
    </Paper>
  );
}

function TryQuestion() {
  const { t } = useTranslation();
  const api = useApi(knowledgeApiRef);
  const [question, setQuestion] = useState('');
  const ask = useMutation({ mutationFn: (q: string) => api.ask(q) });
  const result: AskResponse | undefined = ask.data;
  return (
    <Paper variant="outlined" sx={{ p: 2, flex: 1, width: '100%' }} component="section" aria-labelledby="assistant-try-title">
      <Typography id="assistant-try-title" variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('knowledge.try.title')}
      </Typography>
      <Stack
        spacing={2}
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          if (question.trim()) ask.mutate(question);
        }}
      >
        <TextField label={t('knowledge.try.question')} value={question} onChange={(e) => setQuestion(e.target.value)} multiline minRows={2} slotProps={{ htmlInput: { maxLength: KNOWLEDGE_LIMITS.question } }} />
        <Box>
          <Button type="submit" variant="contained" disableElevation disabled={!question.trim() || ask.isPending}>
            {t('knowledge.try.ask')}
          </Button>
        </Box>
        {ask.error && <Alert severity="error">{errorText(ask.error)}</Alert>}
        {result && (
          <Box role="status" data-testid="assistant-result">
            {result.handover ? (
              <Alert severity="warning">
                {t('knowledge.try.handover')} {t(`knowledge.try.reasons.${result.reason}`)}
              </Alert>
            ) : (
              <>
                <Typography variant="subtitle2">{t('knowledge.try.answer')}</Typography>
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mb: 1 }} data-testid="assistant-answer">
                  {result.answer}
                </Typography>
                <Typography variant="subtitle2">{t('knowledge.try.sources')}</Typography>
                <ul style={{ marginTop: 0 }}>
                  {result.sources.map((s) => (
                    <li key={s.id}>
                      <Typography variant="body2">{s.title}</Typography>
                    </li>
                  ))}
                </ul>
              </>
            )}
            <Typography variant="caption" color="text.secondary">
              {t('knowledge.try.confidence', { percent: Math.round(result.confidence * 100) })}
            </Typography>
          </Box>
        )}
      </Stack>
    </Paper>
  );
}
