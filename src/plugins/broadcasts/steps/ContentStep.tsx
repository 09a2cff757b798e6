import { useEffect, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  FormControl,
  FormHelperText,
  Grid,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { mdiUpload } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { CONTACT_FIELDS, VARIABLE_SOURCES, type VariableMapping } from '../../../../contract/broadcasts';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import { errorText, httpApiRef, MdiIcon, useApi } from '../../../core';
import { MessagePreview } from '../components/MessagePreview';
import type { BroadcastDraft } from '../model/draft';
import {
  acceptFor,
  isMappingComplete,
  mappingProblem,
  mediaHeaderFormat,
  renderMessage,
  suggestMapping,
  templateVariables,
  type SampleRecipient,
  type TemplateVariable,
} from '../model/mapping';
import { useApprovedTemplates, useContactAttributes } from '../queries';
import { uploadFile } from '../upload';
import type { StepProps } from './types';

export function templateKeyOf(t: Pick<WhatsAppTemplate, 'name' | 'language'>) {
  return `${t.name}|${t.language}`;
}

/** The selected template of the draft among the channel's approved ones. */
export function selectedTemplate(draft: BroadcastDraft, templates: WhatsAppTemplate[] | undefined) {
  return templates?.find((t) => t.name === draft.templateName && t.language === draft.templateLanguage);
}

/** The recipient the preview shows: the CSV's first good row, else a made-up contact. */
export function sampleRecipient(draft: BroadcastDraft, fallbackName: string): SampleRecipient {
  const sample = draft.csvSummary?.sample;
  if (draft.type === 'csv' && sample) return { name: sample.name, phone: sample.phone, columns: sample.values };
  return { name: fallbackName, phone: '+14155550123', columns: {} };
}

function VariableRow({
  variable,
  value,
  columns,
  csv,
  onChange,
}: {
  variable: TemplateVariable;
  value: VariableMapping | undefined;
  columns: string[];
  csv: boolean;
  onChange: (value: VariableMapping) => void;
}) {
  const { t } = useTranslation();
  const attributes = useContactAttributes();
  const attributeList = attributes.data ?? [];
  // A member who cannot read contact attributes (403) is not offered them.
  const sources = VARIABLE_SOURCES.filter((s) => (s !== 'column' || csv) && (s !== 'attribute' || !attributes.isError || value?.source === 'attribute'));
  const source = value?.source ?? (csv ? 'column' : 'field');
  const label = t(`broadcasts.content.variable.${variable.where}`, { n: variable.number, button: (variable.button ?? 0) + 1 });
  const problem = mappingProblem(value, columns);
  const idBase = `var-${variable.key.replace(/\./g, '-')}`;

  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} alignItems={{ sm: 'flex-start' }} data-testid={`variable-${variable.key}`}>
      <Typography sx={{ minWidth: 150, flexShrink: 0, pt: { sm: 1 } }} fontWeight={600} id={`${idBase}-label`}>
        {label}
      </Typography>
      {/* Not full width (react-admin's theme makes every FormControl so): in a row it would take the whole
          line and leave the fixed text, whose basis is 0, no width at all. */}
      <FormControl size="small" fullWidth={false} sx={{ minWidth: 170, flexShrink: 0 }}>
        <InputLabel id={`${idBase}-source`}>{t('broadcasts.content.source')}</InputLabel>
        <Select
          labelId={`${idBase}-label ${idBase}-source`}
          label={t('broadcasts.content.source')}
          value={source}
          onChange={(e) => {
            const next = e.target.value as VariableMapping['source'];
            onChange({ source: next, value: next === 'field' ? 'name' : next === 'column' ? (columns[0] ?? '') : next === 'attribute' ? (attributeList[0]?.key ?? '') : '' });
          }}
        >
          {sources.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`broadcasts.content.sources.${s}`)}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      {source === 'fixed' ? (
        <TextField
          size="small"
          label={t('broadcasts.content.fixedValue')}
          value={value?.source === 'fixed' ? value.value : ''}
          onChange={(e) => onChange({ source: 'fixed', value: e.target.value })}
          placeholder={variable.example}
          inputProps={{ maxLength: 1024, 'aria-label': t('broadcasts.content.valueOf', { variable: label }) }}
          error={problem === 'blank'}
          helperText={problem === 'blank' ? t('broadcasts.content.problems.blank') : ' '}
          sx={{ flex: 1, minWidth: 160 }}
        />
      ) : source === 'attribute' ? (
        <FormControl size="small" sx={{ minWidth: 200, flex: 1 }} error={problem === 'missing' && !!value}>
          <InputLabel id={`${idBase}-value`}>{t('broadcasts.content.attribute')}</InputLabel>
          <Select
            labelId={`${idBase}-label ${idBase}-value`}
            label={t('broadcasts.content.attribute')}
            value={value?.source === 'attribute' && attributeList.some((a) => a.key === value.value) ? value.value : ''}
            onChange={(e) => onChange({ source: 'attribute', value: String(e.target.value) })}
          >
            {attributeList.map((a) => (
              <MenuItem key={a.key} value={a.key}>
                {a.name}
              </MenuItem>
            ))}
          </Select>
          {attributes.isSuccess && attributeList.length === 0 && <FormHelperText>{t('broadcasts.content.noAttributes')}</FormHelperText>}
        </FormControl>
      ) : (
        <FormControl size="small" sx={{ minWidth: 200, flex: 1 }} error={problem === 'unknownColumn' || (problem === 'missing' && !!value)}>
          <InputLabel id={`${idBase}-value`}>{source === 'column' ? t('broadcasts.content.column') : t('broadcasts.content.field')}</InputLabel>
          <Select
            labelId={`${idBase}-label ${idBase}-value`}
            label={source === 'column' ? t('broadcasts.content.column') : t('broadcasts.content.field')}
            value={value?.source === source && (source !== 'column' || columns.includes(value.value)) ? value.value : ''}
            onChange={(e) => onChange({ source, value: String(e.target.value) })}
          >
            {(source === 'column' ? columns : CONTACT_FIELDS).map((option) => (
              <MenuItem key={option} value={option}>
                {source === 'column' ? option : t(`broadcasts.content.fields.${option}`)}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}
    </Stack>
  );
}

function MediaHeaderUpload({ draft, update, format }: StepProps & { format: string }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const choose = async (file: File | undefined) => {
    if (!file) return;
    setPending(true);
    setError(null);
    try {
      const url = await uploadFile(http, file);
      update({ headerMedia: { url, name: file.name, type: file.type } });
    } catch (err) {
      setError(t('broadcasts.content.media.error', { error: errorText(err) }));
    } finally {
      setPending(false);
    }
  };
  return (
    <Stack spacing={1}>
      <Typography fontWeight={600}>{t('broadcasts.content.media.title', { format: t(`broadcasts.content.media.formats.${format}`) })}</Typography>
      <Stack direction="row" spacing={1.5} alignItems="center">
        <Button
          component="label"
          variant="outlined"
          disabled={pending}
          startIcon={pending ? <CircularProgress size={16} aria-hidden /> : <MdiIcon path={mdiUpload} />}
        >
          {draft.headerMedia ? t('broadcasts.content.media.replace') : t('broadcasts.content.media.upload')}
          <input hidden type="file" accept={acceptFor(format)} aria-label={t('broadcasts.content.media.upload')} onChange={(e) => void choose(e.target.files?.[0])} />
        </Button>
        {draft.headerMedia && <Typography variant="body2">{draft.headerMedia.name}</Typography>}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
    </Stack>
  );
}

/** Step 2: an approved template of the number, each {{n}} mapped to a CSV column, a contact field or a fixed value, the media header's file. */
export function ContentStep({ draft, update }: StepProps) {
  const { t } = useTranslation();
  const templates = useApprovedTemplates(draft.channelId);
  const list = templates.data ?? [];
  const template = selectedTemplate(draft, list);
  const variables = templateVariables(template);
  const columns = draft.type === 'csv' ? (draft.csvSummary?.columns ?? []) : [];
  const format = mediaHeaderFormat(template);

  // A newly chosen template: CSV columns named after its variables are mapped at once.
  useEffect(() => {
    if (!template) return;
    const suggested = suggestMapping(variables, columns, draft.mapping);
    if (JSON.stringify(suggested) !== JSON.stringify(draft.mapping)) update({ mapping: suggested });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per template
  }, [template?.id]);

  const recipient = sampleRecipient(draft, t('broadcasts.content.sampleName'));

  return (
    <Grid container spacing={3}>
      <Grid size={{ xs: 12, md: 7 }}>
        <Stack spacing={3}>
          {templates.isPending ? (
            <CircularProgress size={24} aria-label={t('broadcasts.common.loading')} />
          ) : templates.isError ? (
            <Alert severity="error">{errorText(templates.error)}</Alert>
          ) : list.length === 0 ? (
            <Alert severity="info">{t('broadcasts.content.noTemplates')}</Alert>
          ) : (
            <FormControl required>
              <InputLabel id="broadcast-template-label">{t('broadcasts.content.template')}</InputLabel>
              <Select
                labelId="broadcast-template-label"
                label={t('broadcasts.content.template')}
                value={template ? templateKeyOf(template) : ''}
                onChange={(e) => {
                  const next = list.find((x) => templateKeyOf(x) === e.target.value);
                  if (next) update({ templateName: next.name, templateLanguage: next.language, mapping: {}, headerMedia: null });
                }}
              >
                {list.map((x) => (
                  <MenuItem key={templateKeyOf(x)} value={templateKeyOf(x)}>
                    {x.name} · {x.language} · {t(`broadcasts.templateCategory.${x.category}`, { defaultValue: x.category })}
                  </MenuItem>
                ))}
              </Select>
            </FormControl>
          )}
          {template && format && <MediaHeaderUpload draft={draft} update={update} format={format} />}
          {template && variables.length > 0 && (
            <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" fontWeight={700} sx={{ mb: 1 }}>
                {t('broadcasts.content.variables')}
              </Typography>
              {variables.map((v) => (
                <VariableRow
                  key={v.key}
                  variable={v}
                  value={draft.mapping[v.key]}
                  columns={columns}
                  csv={draft.type === 'csv'}
                  onChange={(value) => update({ mapping: { ...draft.mapping, [v.key]: value } })}
                />
              ))}
              {!isMappingComplete(variables, draft.mapping, columns) && (
                <Typography variant="body2" color="text.secondary">
                  {t('broadcasts.content.mapEvery')}
                </Typography>
              )}
            </Stack>
          )}
          {template && variables.length === 0 && <Typography color="text.secondary">{t('broadcasts.content.noVariables')}</Typography>}
        </Stack>
      </Grid>
      <Grid size={{ xs: 12, md: 5 }}>
        {template && (
          <Box>
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
              {t('broadcasts.content.previewFor', { name: recipient.name || recipient.phone })}
            </Typography>
            <MessagePreview message={renderMessage(template, draft.mapping, recipient, draft.headerMedia?.url ?? null)} />
          </Box>
        )}
      </Grid>
    </Grid>
  );
}

/** Can the stepper go on from the content step? */
export function contentComplete(draft: BroadcastDraft, templates: WhatsAppTemplate[] | undefined): boolean {
  const template = selectedTemplate(draft, templates);
  if (!template) return false;
  if (mediaHeaderFormat(template) && !draft.headerMedia) return false;
  const columns = draft.type === 'csv' ? (draft.csvSummary?.columns ?? []) : [];
  return isMappingComplete(templateVariables(template), draft.mapping, columns);
}
