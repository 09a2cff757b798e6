/**
 * /flows/edit/{flowName}: the whole flow on one page — details and extra context, intro + media,
 * the steps (sortable), find out more + media, call to action, keywords — with the phone preview
 * following the edits, the "try it" chat on the real runtime, per-step counts, version history, and
 * one save of the whole flow (POST /api/flows/{id}/save/). Leaving with unsaved changes asks first.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Paper, Stack, TextField, Typography } from '@mui/material';
import { mdiArrowLeft, mdiContentSave, mdiHistory, mdiSitemapOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { ConfirmDialog, MdiIcon, useAccess, useAccount, useAlert, useApi, useFeature } from '../../../core';
import { FLOW_EXTRA_LIMITS, FLOW_LIMITS, type Flow, type FlowVersion } from '../../../../contract/flows';
import { callToActionUrlOf } from '../model/cta';
import { flowServiceApiRef } from '../api/flowService';
import { flowErrorAlert } from '../api/errors';
import { useFlowByName, useFlowStats, useRefreshFlows } from '../api/hooks';
import { TextListField } from '../components/TextListField';
import { draftProblems, isDirty, normalized, toDraft, toSaveBody, type FlowDraft } from '../model/draft';
import { translateRule } from '../model/validation';
import { branchPath, editPath } from '../FlowsPage';
import { FlowPreview } from './FlowPreview';
import { MediaField } from './MediaField';
import { StepList } from './StepList';
import { TestChat } from './TestChat';
import { VersionHistory } from './VersionHistory';

function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <Paper variant="outlined" component="section" aria-labelledby={id} sx={{ p: { xs: 2, md: 2.5 } }}>
      <Typography id={id} variant="h6" component="h2" sx={{ mb: 1.5 }}>
        {title}
      </Typography>
      <Stack spacing={2}>{children}</Stack>
    </Paper>
  );
}

/** Asks before leaving with unsaved changes: closing the tab, and in-app links (menu, breadcrumbs). */
function useLeaveGuard(dirty: boolean, ask: (to: string) => void) {
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const anchor = (e.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!anchor || anchor.target === '_blank' || anchor.hasAttribute('download')) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      e.preventDefault();
      e.stopPropagation();
      ask(url.pathname + url.search + url.hash);
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    document.addEventListener('click', onClick, true);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      document.removeEventListener('click', onClick, true);
    };
  }, [dirty, ask]);
}

function KeywordsField({ keywords, onChange, readOnly }: { keywords: string[]; onChange: (k: string[]) => void; readOnly: boolean }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = (e?: FormEvent) => {
    e?.preventDefault();
    const k = value.trim().toLowerCase();
    if (!k) return;
    if (keywords.includes(k)) return setProblem(t('flows.editor.keywords.duplicate'));
    if (k.length > FLOW_EXTRA_LIMITS.keyword) return setProblem(t('flows.rules.maxChars', { max: FLOW_EXTRA_LIMITS.keyword }));
    onChange([...keywords, k]);
    setValue('');
    setProblem(null);
  };
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('flows.editor.keywords.help')}
      </Typography>
      <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap sx={{ mb: 1 }} data-testid="flow-keywords">
        {keywords.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('flows.editor.keywords.none')}
          </Typography>
        )}
        {keywords.map((k) => (
          <Chip key={k} label={k} onDelete={readOnly ? undefined : () => onChange(keywords.filter((x) => x !== k))} />
        ))}
      </Stack>
      {!readOnly && (
        <Stack direction="row" spacing={1} alignItems="flex-start">
          <TextField
            size="small"
            label={t('flows.editor.keywords.label')}
            value={value}
            onChange={(e) => {
              setValue(e.target.value);
              setProblem(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') add(e);
            }}
            error={!!problem}
            helperText={problem ?? undefined}
            disabled={keywords.length >= FLOW_EXTRA_LIMITS.keywords}
          />
          <Button variant="outlined" onClick={() => add()} disabled={!value.trim()}>
            {t('flows.editor.keywords.add')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}

function FlowEditor({ loaded }: { loaded: Flow }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const alert = useAlert();
  const service = useApi(flowServiceApiRef);
  const refresh = useRefreshFlows();
  const { canManage } = useAccess('flows');
  const readOnly = !canManage;
  const [stored, setStored] = useState<Flow>(loaded);
  const [draft, setDraft] = useState<FlowDraft>(() => toDraft(loaded));
  const [saving, setSaving] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  // The same flow as a graph (/flows/branch/{flowName}), where branching_flows is enabled (spec §6: off at start-up).
  const branching = useFeature('branching_flows');
  const [leaving, setLeaving] = useState<string | null>(null);
  const stats = useFlowStats(stored.id);
  const problems = useMemo(() => draftProblems(draft), [draft]);
  const storedDraft = useMemo(() => toDraft(stored), [stored]);
  const storedNormalized = useMemo(() => normalized(storedDraft), [storedDraft]);
  const dirty = useMemo(() => isDirty(draft, storedNormalized), [draft, storedNormalized]);
  const invalid = Object.keys(problems).length > 0;
  const draftRef = useRef(draft);
  draftRef.current = draft;

  const ask = useCallback((to: string) => setLeaving(to), []);
  useLeaveGuard(dirty, ask);

  const set = <K extends keyof FlowDraft>(key: K, value: FlowDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  // A field's problem once it was changed, or after a save was tried.
  const problem = (path: string, value: unknown) => {
    const shown = submitted || JSON.stringify(value) !== JSON.stringify((storedDraft as unknown as Record<string, unknown>)[path]);
    return shown ? translateRule(t, problems[path]) : null;
  };

  const save = async () => {
    setSubmitted(true);
    if (invalid) {
      alert.error(t('flows.editor.invalid'));
      return;
    }
    setSaving(true);
    try {
      const saved = await service.saveFlow(stored.id, toSaveBody(draft));
      setStored(saved);
      setDraft(toDraft(saved));
      setSubmitted(false);
      alert.success(t('flows.editor.updated'));
      void refresh();
      if (saved.flow_name !== loaded.flow_name) navigate(editPath(saved.flow_name), { replace: true });
    } catch (error) {
      alert.error(flowErrorAlert('update', error));
    } finally {
      setSaving(false);
    }
  };

  const restore = async (v: FlowVersion) => {
    try {
      const restored = await service.restore(stored.id, v.id);
      setStored(restored);
      setDraft(toDraft(restored));
      alert.success(t('flows.history.restored', { n: v.version }));
      void refresh();
      if (restored.flow_name !== loaded.flow_name) navigate(editPath(restored.flow_name), { replace: true });
    } catch (error) {
      alert.error(flowErrorAlert('update', error));
    }
  };

  const text = (name: 'flow_name' | 'description' | 'company_name' | 'company_domain' | 'intro_msg' | 'find_out_more_msg' | 'call_to_action', label: string, max: number, options: { multiline?: boolean; required?: boolean; help?: string } = {}) => {
    const p = problem(name, draft[name]);
    return (
      <TextField
        name={name}
        label={label}
        value={draft[name]}
        onChange={(e) => set(name, e.target.value)}
        required={options.required}
        multiline={options.multiline}
        minRows={options.multiline ? 2 : undefined}
        fullWidth
        size="small"
        disabled={readOnly}
        error={!!p}
        helperText={p ?? (options.help ? `${options.help} · ${draft[name].length}/${max}` : `${draft[name].length}/${max}`)}
      />
    );
  };

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Stack direction={{ xs: 'column', md: 'row' }} justifyContent="space-between" alignItems={{ md: 'center' }} spacing={2} sx={{ mb: 2 }}>
        <Box>
          <Button size="small" startIcon={<MdiIcon path={mdiArrowLeft} />} onClick={() => (dirty ? setLeaving('/flows') : navigate('/flows'))} sx={{ mb: 0.5 }}>
            {t('flows.editor.back')}
          </Button>
          <Typography variant="h5" component="h1" fontWeight={700}>
            {stored.flow_name}
          </Typography>
          <Typography variant="body2" color="text.secondary" role="status" data-testid="flow-save-state">
            {t('flows.fields.version')} {stored.version} · {dirty ? t('flows.editor.unsaved') : t('flows.editor.saved')}
          </Typography>
        </Box>
        {/* Wraps on a phone: the three buttons side by side made the page 616 px wide at 390. */}
        <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
          {branching && (
            <Button
              variant="outlined"
              startIcon={<MdiIcon path={mdiSitemapOutline} />}
              onClick={() => (dirty ? setLeaving(branchPath(stored.flow_name)) : navigate(branchPath(stored.flow_name)))}
            >
              {t('flows.editor.branchView')}
            </Button>
          )}
          <Button variant="outlined" startIcon={<MdiIcon path={mdiHistory} />} onClick={() => setHistoryOpen(true)}>
            {t('flows.history.open')}
          </Button>
          {!readOnly && (
            <Button
              variant="contained"
              disableElevation
              onClick={() => void save()}
              disabled={saving || !dirty}
              startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={mdiContentSave} />}
              sx={{ fontWeight: 600 }}
            >
              {saving ? t('flows.editor.saving') : t('flows.editor.save')}
            </Button>
          )}
        </Stack>
      </Stack>
      {submitted && invalid && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('flows.editor.invalid')}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 360px' }, alignItems: 'start' }}>
        <Stack spacing={2} component="form" onSubmit={(e: FormEvent) => { e.preventDefault(); void save(); }} noValidate aria-label={stored.flow_name}>
          <Section title={t('flows.editor.sections.details')} id="flow-details">
            {text('flow_name', t('flows.fields.flow_name'), FLOW_LIMITS.flow_name, { required: true })}
            {text('description', t('flows.fields.description'), FLOW_LIMITS.description, { required: true })}
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
              {text('company_name', t('flows.fields.company_name'), FLOW_EXTRA_LIMITS.company_name, { required: true })}
              {text('company_domain', t('flows.fields.company_domain'), FLOW_LIMITS.company_domain, { required: true })}
            </Stack>
            <TextListField
              label={t('flows.fields.extra_context')}
              help={t('flows.create.contextHelp')}
              items={draft.extra_context}
              onChange={(items) => set('extra_context', items)}
              errors={draft.extra_context.map((_, i) => translateRule(t, problems[`extra_context.${i}`]))}
              maxItems={FLOW_EXTRA_LIMITS.extraContextItems}
            />
          </Section>
          <Section title={t('flows.editor.sections.intro')} id="flow-intro">
            {text('intro_msg', t('flows.editor.intro_msg'), FLOW_LIMITS.intro_msg, { multiline: true })}
            <MediaField testId="intro-media" label={t('flows.editor.media.url')} value={draft.intro_media_url} onChange={(v) => set('intro_media_url', v)} problem={problems.intro_media_url} readOnly={readOnly} />
          </Section>
          <Section title={t('flows.editor.sections.steps')} id="flow-steps">
            <StepList steps={draft.steps} onChange={(steps) => set('steps', steps)} problems={problems} stats={stats.data} readOnly={readOnly} />
          </Section>
          <Section title={t('flows.editor.sections.ending')} id="flow-ending">
            {text('find_out_more_msg', t('flows.editor.find_out_more_msg'), FLOW_LIMITS.find_out_more_msg, { multiline: true })}
            <MediaField testId="find-out-more-media" label={t('flows.editor.media.url')} value={draft.find_out_more_media_url} onChange={(v) => set('find_out_more_media_url', v)} problem={problems.find_out_more_media_url} readOnly={readOnly} />
          </Section>
          <Section title={t('flows.editor.sections.cta')} id="flow-cta">
            {text('call_to_action', t('flows.editor.call_to_action'), FLOW_LIMITS.call_to_action, { help: t('flows.editor.ctaHelp', { url: callToActionUrlOf(draft.company_domain) }) })}
          </Section>
          <Section title={t('flows.editor.sections.keywords')} id="flow-keywords">
            <KeywordsField keywords={draft.keywords} onChange={(k) => set('keywords', k)} readOnly={readOnly} />
          </Section>
        </Stack>
        <Stack spacing={2} sx={{ position: { lg: 'sticky' }, top: { lg: 16 } }}>
          <FlowPreview draft={draft} businessName={draft.company_name || stored.company_name} />
          {!readOnly && <TestChat flowId={stored.id} draft={() => (Object.keys(draftProblems(draftRef.current)).length ? null : toSaveBody(draftRef.current))} />}
        </Stack>
      </Box>
      <VersionHistory flowId={stored.id} currentVersion={stored.version} open={historyOpen} onClose={() => setHistoryOpen(false)} canRestore={!readOnly} blocked={dirty} onRestore={restore} />
      <ConfirmDialog
        open={leaving !== null}
        title={t('flows.editor.leave.title')}
        message={t('flows.editor.leave.message')}
        confirmLabel={t('flows.editor.leave.confirm')}
        cancelLabel={t('flows.editor.leave.cancel')}
        onConfirm={() => {
          const to = leaving!;
          setLeaving(null);
          setDraft(toDraft(stored)); // no longer dirty: the guard lets the navigation through
          setTimeout(() => navigate(to), 0);
        }}
        onClose={() => setLeaving(null)}
      />
    </Box>
  );
}

/** The route: finds the flow by its name in the company's flows. */
export default function FlowEditPage() {
  const { t } = useTranslation();
  const { flowName = '' } = useParams();
  const { companyId } = useAccount();
  const flow = useFlowByName(flowName);
  if (flow.isPending) {
    return (
      <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ py: 6, justifyContent: 'center' }}>
        <CircularProgress size={20} aria-hidden />
        <Typography variant="body2">{t('flows.editor.loading')}</Typography>
      </Stack>
    );
  }
  if (flow.error || !flow.data) {
    return (
      <Box sx={{ p: 3 }}>
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          {t('flows.title')}
        </Typography>
        <Alert severity={flow.error ? 'error' : 'warning'}>{flow.error ? flowErrorAlert('update', flow.error) : t('flows.editor.notFound')}</Alert>
      </Box>
    );
  }
  // a company switch or a rename gives a fresh editor
  return <FlowEditor key={`${companyId}:${flow.data.id}`} loaded={flow.data} />;
}

