/**
 * /templates/create-whatsapp-template/{category}/{type}?channel=<id>[&template=<id>|&duplicate=<id>]
 * (issue #10; spec §2; URL contract in ./paths.ts): the WhatsApp template editor. A form beside a
 * live phone preview: name (Meta's naming rule), language (Meta's codes), category, header (text
 * with one variable, or an image / video / document sample uploaded with progress and handed to
 * Meta's resumable upload), body with variable chips and an example per variable, footer, buttons;
 * authentication templates get Meta's preset body, the code expiry and the copy-code or one-tap
 * button. Every field is checked as it is typed with the contract's zod schemas — the ones the
 * server validates with — and its error shows under it. Submitting creates the template ('Template
 * successfully created.', then /templates), or edits it where Meta allows ('Successfully updated
 * template.' / 'Error while updating template.').
 */
import { useMemo, useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router-dom';
import {
  Alert,
  Autocomplete,
  Button,
  Checkbox,
  Divider,
  FormControlLabel,
  MenuItem,
  Paper,
  Stack,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_LIMITS, type TemplateCategory } from '../../../../contract/templates';
import { MessageBubble, PhoneFrame, type PreviewMessage } from '../../../core/components/whatsappPreview/PhonePreview';
import { ButtonsEditor } from './ButtonsEditor';
import { EditorLoadError, EditorLoading, EditorPageShell, SubmitBar, useEditorForm, useTemplateTarget } from './EditorPage';
import { CountedField, MediaUpload, VariableText } from './fields';
import { languageLabel, META_LANGUAGES } from './languages';
import {
  AUTH_SAMPLE_CODE,
  canChangeCategory,
  canEdit,
  componentsOf,
  definitionOf,
  draftErrors,
  draftFromTemplate,
  duplicateDraft,
  editOf,
  fillVariables,
  initialDraft,
  serverErrors,
  type EditorDraft,
  type HeaderChoice,
} from './model';
import { EDITOR_CATEGORIES } from './paths';

const HEADERS: HeaderChoice[] = ['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'];

/** What the phone shows for a draft (the preset texts in the template's language). */
export function previewOf(draft: EditorDraft, t: (key: string, options?: Record<string, unknown>) => string): PreviewMessage {
  if (draft.category === 'AUTHENTICATION') {
    const lines = [t('templates.editor.preview.authBody', { code: AUTH_SAMPLE_CODE })];
    if (draft.securityRecommendation) lines.push(t('templates.editor.preview.authSecurity'));
    const minutes = draft.codeExpiry.trim();
    return {
      header: null,
      body: lines.join(' '),
      footer: /^\d+$/.test(minutes) ? t('templates.editor.preview.authExpiry', { count: Number(minutes) }) : undefined,
      buttons: [{ kind: 'OTP', label: draft.otpText || t(draft.otpType === 'ONE_TAP' ? 'templates.editor.auth.autofillDefault' : 'templates.editor.auth.copyDefault') }],
    };
  }
  const header: PreviewMessage['header'] =
    draft.header === 'NONE'
      ? null
      : draft.header === 'TEXT'
        ? { kind: 'text', text: fillVariables(draft.headerText, [draft.headerExample]) }
        : { kind: 'media', format: draft.header, url: draft.media?.previewUrl ?? null, fileName: draft.media?.fileName };
  return {
    header,
    body: fillVariables(draft.body, draft.bodyExamples) || t('templates.editor.preview.emptyBody'),
    footer: draft.footer || undefined,
    buttons: draft.buttons.map((b) => ({ kind: b.kind, label: b.kind === 'COPY_CODE' ? t('templates.editor.preview.copyCode') : b.text })),
  };
}

function categoryOf(slug: string | undefined): TemplateCategory | null {
  return slug && (EDITOR_CATEGORIES as readonly string[]).includes(slug) ? (slug.toUpperCase() as TemplateCategory) : null;
}

export default function TemplateEditorPage() {
  const { t, i18n } = useTranslation();
  const params = useParams<{ category: string; type: string }>();
  const routeCategory = categoryOf(params.category);
  const type = routeCategory === 'AUTHENTICATION' ? 'authentication' : (params.type ?? 'text');

  const [draft, setDraft] = useState<EditorDraft>(() => initialDraft(routeCategory ?? 'MARKETING', type));
  const { api, channel, editing, loading, loadError } = useTemplateTarget({
    onSource: (source, isEditing) => setDraft(isEditing ? draftFromTemplate(source) : duplicateDraft(source)),
  });

  const isEdit = editing !== null;
  const errors = useMemo(() => draftErrors(draft, isEdit), [draft, isEdit]);
  const form = useEditorForm(errors, isEdit);
  const { errorOf, touch } = form;
  const change = (patch: Partial<EditorDraft>, ...fields: string[]) => {
    setDraft((prev) => ({ ...prev, ...patch }));
    form.changed(...fields);
  };
  // Meta's preset texts in the template's language (French or English here).
  const previewT = useMemo(() => i18n.getFixedT(draft.language.startsWith('fr') ? 'fr' : 'en'), [i18n, draft.language]);
  const preview = previewOf(draft, previewT as never);
  const isAuth = draft.category === 'AUTHENTICATION';
  const editable = !editing || canEdit(editing.status);

  if (!routeCategory) {
    return (
      <Alert severity="error" action={<Button component={RouterLink} to="/templates/template-setup">{t('templates.editor.backToSetup')}</Button>}>
        {t('templates.editor.unknownCategory')}
      </Alert>
    );
  }
  if (loading) return <EditorLoading />;
  if (loadError || !channel) return <EditorLoadError title={t('templates.editor.title')} message={loadError} />;

  const submit = () =>
    form.submit(
      () => (editing ? api.edit(channel.id, editing.id, editOf(draft)) : api.create(channel.id, definitionOf(draft))),
      (body) => serverErrors(body, componentsOf(draft)),
    );

  return (
    <EditorPageShell
      title={editing ? t('templates.editor.editTitle', { name: editing.name }) : t('templates.editor.title')}
      subtitle={t('templates.editor.subtitle', { channel: channel.name, category: t(`templates.editor.categories.${draft.category}`) })}
      onSubmit={() => void submit()}
      notices={
        <>
          {editing && !editable && <Alert severity="warning" sx={{ mb: 2 }}>{t('templates.editor.notEditable', { status: editing.status })}</Alert>}
          {editing && editable && <Alert severity="info" sx={{ mb: 2 }}>{t('templates.editor.editInfo')}</Alert>}
        </>
      }
      formError={form.fromServer.form}
      preview={
        <PhoneFrame businessName={channel.name}>
          <MessageBubble message={preview} />
        </PhoneFrame>
      }
    >
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack spacing={2}>
          <Typography variant="h6" component="h2">{t('templates.editor.sections.details')}</Typography>
          <CountedField
            label={t('templates.editor.name')}
            value={draft.name}
            onChange={(name) => change({ name }, 'name')}
            onBlur={() => touch('name')}
            limit={TEMPLATE_LIMITS.name}
            error={errorOf('name')}
            hint={t('templates.editor.nameHint')}
            disabled={isEdit}
            required
            inputProps={{ 'data-testid': 'name' }}
          />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <Autocomplete
              sx={{ flex: 1 }}
              options={META_LANGUAGES as readonly string[]}
              value={draft.language}
              disabled={isEdit}
              disableClearable
              getOptionLabel={(code) => languageLabel(code, i18n.language)}
              onChange={(_e, language) => change({ language }, 'language')}
              renderInput={(props) => <TextField {...props} FormHelperTextProps={{ sx: { '&.Mui-disabled': { color: 'text.secondary' } } }} label={t('templates.editor.language')} error={!!errorOf('language')} helperText={errorOf('language') || t('templates.editor.languageHint')} />}
            />
            <TextField
              select
              sx={{ flex: 1 }}
              label={t('templates.editor.category')}
              value={draft.category}
              disabled={isAuth || (isEdit && !canChangeCategory(editing.status))}
              onChange={(e) => change({ category: e.target.value as TemplateCategory }, 'category')}
              error={!!errorOf('category')}
              slotProps={{ formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
              helperText={errorOf('category') || (isEdit && !canChangeCategory(editing.status) ? t('templates.editor.categoryLocked') : t(`templates.editor.categoryHelp.${draft.category}`))}
            >
              {(isAuth ? ['AUTHENTICATION'] : ['MARKETING', 'UTILITY']).map((c) => (
                <MenuItem key={c} value={c}>
                  {t(`templates.editor.categories.${c}`)}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
        </Stack>
      </Paper>

      {isAuth ? (
        <Paper variant="outlined" sx={{ p: 2 }}>
          <Stack spacing={2}>
            <Typography variant="h6" component="h2">{t('templates.editor.sections.authentication')}</Typography>
            <Alert severity="info">{t('templates.editor.auth.presetInfo')}</Alert>
            <FormControlLabel
              control={<Checkbox checked={draft.securityRecommendation} onChange={(e) => change({ securityRecommendation: e.target.checked })} />}
              label={t('templates.editor.auth.security')}
            />
            <TextField
              label={t('templates.editor.auth.expiry')}
              value={draft.codeExpiry}
              onChange={(e) => change({ codeExpiry: e.target.value }, 'codeExpiry')}
              error={!!errorOf('codeExpiry')}
              helperText={errorOf('codeExpiry') || t('templates.editor.auth.expiryHint', { min: TEMPLATE_LIMITS.codeExpiryMin, max: TEMPLATE_LIMITS.codeExpiryMax })}
              inputProps={{ inputMode: 'numeric', 'data-testid': 'codeExpiry' }}
            />
            <ToggleButtonGroup
              exclusive
              color="primary"
              value={draft.otpType}
              onChange={(_e, otpType) => otpType && change({ otpType, otpText: t(otpType === 'ONE_TAP' ? 'templates.editor.auth.autofillDefault' : 'templates.editor.auth.copyDefault') })}
              aria-label={t('templates.editor.auth.button')}
            >
              <ToggleButton value="COPY_CODE">{t('templates.editor.auth.copyCode')}</ToggleButton>
              <ToggleButton value="ONE_TAP">{t('templates.editor.auth.oneTap')}</ToggleButton>
            </ToggleButtonGroup>
            <CountedField label={t('templates.editor.auth.buttonText')} value={draft.otpText} onChange={(otpText) => change({ otpText }, 'otpText')} limit={TEMPLATE_LIMITS.buttonText} error={errorOf('otpText')} />
            {draft.otpType === 'ONE_TAP' && (
              <>
                <CountedField label={t('templates.editor.auth.autofillText')} value={draft.autofillText} onChange={(autofillText) => change({ autofillText })} limit={TEMPLATE_LIMITS.buttonText} />
                <CountedField label={t('templates.editor.auth.packageName')} value={draft.packageName} onChange={(packageName) => change({ packageName }, 'packageName')} error={errorOf('packageName')} hint={t('templates.editor.auth.packageHint')} required />
                <CountedField label={t('templates.editor.auth.signatureHash')} value={draft.signatureHash} onChange={(signatureHash) => change({ signatureHash }, 'signatureHash')} error={errorOf('signatureHash')} hint={t('templates.editor.auth.signatureHint')} />
              </>
            )}
            {errorOf('buttons') && <Alert severity="error">{errorOf('buttons')}</Alert>}
          </Stack>
        </Paper>
      ) : (
        <>
          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack spacing={2}>
              <Typography variant="h6" component="h2">{t('templates.editor.sections.header')}</Typography>
              <ToggleButtonGroup
                exclusive
                size="small"
                color="primary"
                value={draft.header}
                onChange={(_e, header: HeaderChoice | null) => header && change({ header, media: header === draft.header ? draft.media : null })}
                aria-label={t('templates.editor.header.kind')}
                sx={{ flexWrap: 'wrap' }}
              >
                {HEADERS.map((h) => (
                  <ToggleButton key={h} value={h} data-testid={`header-${h}`}>
                    {t(`templates.editor.header.formats.${h}`)}
                  </ToggleButton>
                ))}
              </ToggleButtonGroup>
              {draft.header === 'TEXT' && (
                <VariableText
                  testId="header-text"
                  label={t('templates.editor.header.text')}
                  value={draft.headerText}
                  examples={[draft.headerExample]}
                  onChange={(headerText, examples) => change({ headerText, headerExample: examples[0] ?? '' }, 'headerText')}
                  limit={TEMPLATE_LIMITS.headerText}
                  maxVariables={1}
                  error={errorOf('headerText') || errorOf('header')}
                  examplesError={(i) => (i === 0 || i === null ? errorOf('headerExample') : null)}
                />
              )}
              {(draft.header === 'IMAGE' || draft.header === 'VIDEO' || draft.header === 'DOCUMENT') && channel && (
                <MediaUpload
                  testId="header-media"
                  format={draft.header}
                  media={draft.media}
                  onChange={(media) => change({ media }, 'media')}
                  upload={(file, onProgress) => api.uploadMedia(channel.id, file, draft.header as 'IMAGE', onProgress)}
                  error={errorOf('media')}
                />
              )}
            </Stack>
          </Paper>

          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack spacing={2}>
              <Typography variant="h6" component="h2">{t('templates.editor.sections.body')}</Typography>
              <VariableText
                testId="body"
                label={t('templates.editor.body')}
                value={draft.body}
                examples={draft.bodyExamples}
                onChange={(body, bodyExamples) => change({ body, bodyExamples }, 'body')}
                onBlur={() => touch('body')}
                multiline
                limit={TEMPLATE_LIMITS.body}
                error={errorOf('body')}
                hint={t('templates.editor.bodyHint')}
                examplesError={(i) => (i === null ? errorOf('bodyExamples') : errorOf(`bodyExamples.${i}`))}
              />
              <CountedField
                label={t('templates.editor.footer')}
                value={draft.footer}
                onChange={(footer) => change({ footer }, 'footer')}
                limit={TEMPLATE_LIMITS.footer}
                error={errorOf('footer')}
                hint={t('templates.editor.footerHint')}
                inputProps={{ 'data-testid': 'footer' }}
              />
            </Stack>
          </Paper>

          <Paper variant="outlined" sx={{ p: 2 }}>
            <Stack spacing={2}>
              <Typography variant="h6" component="h2">{t('templates.editor.sections.buttons')}</Typography>
              <ButtonsEditor buttons={draft.buttons} category={draft.category} onChange={(buttons) => change({ buttons }, 'buttons')} error={errorOf} touch={touch} />
            </Stack>
          </Paper>
        </>
      )}
      <Divider />
      <SubmitBar
        label={t(editing ? 'templates.editor.save' : 'templates.editor.submit')}
        testId="submit-template"
        saving={form.saving}
        disabled={!editable}
        submitted={form.submitted}
        invalidCount={form.invalidCount}
      />
    </EditorPageShell>
  );
}
