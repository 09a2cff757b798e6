import { useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  InputLabel,
  Link,
  MenuItem,
  Select,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { mdiDownload, mdiUpload } from '@mdi/js';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { AudiencePreview } from '../../../../contract/broadcasts';
import { errorText, httpApiRef, MdiIcon, useApi } from '../../../core';
import { previewAudience } from '../api';
import { audienceOf, type BroadcastDraft } from '../model/draft';
import { downloadText, sampleCsv } from '../model/report';
import { useAllChannels, useSegments, useTags, useWhatsAppChannels } from '../queries';
import type { StepProps } from './types';

/** A file's text (FileReader: also where Blob.text is missing). */
export function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

/** Bad rows shown at once; the rest are counted. */
const BAD_ROWS_SHOWN = 50;

function CsvUpload({ draft, update }: StepProps) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const input = useRef<HTMLInputElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const choose = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (draft.channelId === null) {
      setError(t('broadcasts.audience.chooseNumberFirst'));
      return;
    }
    setPending(true);
    try {
      const text = await readText(file);
      const preview = await previewAudience(http, { page_id: draft.channelId, audience: { type: 'csv', csv: text, file_name: file.name } });
      update({
        csv: { fileName: file.name, text },
        csvTooLarge: null,
        csvSummary: {
          total: preview.total,
          recipients: preview.recipients,
          columns: preview.columns,
          badRows: preview.bad_rows,
          sample: preview.sample[0] ?? null,
        },
      });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setPending(false);
      if (input.current) input.current.value = '';
    }
  };

  const summary = draft.csvSummary;
  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} alignItems={{ sm: 'center' }}>
        <Button
          variant="contained"
          disableElevation
          component="label"
          startIcon={pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={mdiUpload} />}
          disabled={pending}
        >
          {draft.csv ? t('broadcasts.audience.csv.replace') : t('broadcasts.audience.csv.upload')}
          <input
            ref={input}
            hidden
            type="file"
            accept=".csv,text/csv"
            data-testid="csv-input"
            aria-label={t('broadcasts.audience.csv.upload')}
            onChange={(e) => void choose(e.target.files?.[0])}
          />
        </Button>
        <Button variant="text" startIcon={<MdiIcon path={mdiDownload} />} onClick={() => downloadText('broadcast-sample.csv', sampleCsv())}>
          {t('broadcasts.audience.csv.sample')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        {t('broadcasts.audience.csv.help')}
      </Typography>
      {draft.csvTooLarge && !draft.csv && <Alert severity="info">{t('broadcasts.audience.csv.tooLargeToKeep', { file: draft.csvTooLarge })}</Alert>}
      {error && (
        <Alert severity="error" role="alert">
          {error}
        </Alert>
      )}
      {draft.csv && summary && (
        <Stack spacing={1.5} data-testid="csv-summary">
          <Typography>
            <strong>{draft.csv.fileName}</strong> — {t('broadcasts.audience.csv.summary', { total: summary.total, good: summary.total - summary.badRows.length, bad: summary.badRows.length })}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('broadcasts.audience.csv.columns')}{' '}
            {summary.columns.map((c) => (
              <Chip key={c} label={c} size="small" sx={{ mr: 0.5, mb: 0.5 }} />
            ))}
          </Typography>
          {summary.badRows.length > 0 && (
            <Box>
              <Alert severity="warning" sx={{ mb: 1 }}>
                {t('broadcasts.audience.csv.badRows', { count: summary.badRows.length })}
              </Alert>
              <Table size="small" aria-label={t('broadcasts.audience.csv.badRowsTable')}>
                <TableHead>
                  <TableRow>
                    <TableCell>{t('broadcasts.audience.csv.row')}</TableCell>
                    <TableCell>{t('broadcasts.audience.csv.value')}</TableCell>
                    <TableCell>{t('broadcasts.audience.csv.reason')}</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {summary.badRows.slice(0, BAD_ROWS_SHOWN).map((bad) => (
                    <TableRow key={bad.row} data-testid="bad-row">
                      <TableCell>{bad.row}</TableCell>
                      <TableCell sx={{ fontFamily: 'monospace' }}>{bad.value ?? ''}</TableCell>
                      <TableCell>{bad.reason}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
              {summary.badRows.length > BAD_ROWS_SHOWN && (
                <Typography variant="caption" color="text.secondary">
                  {t('broadcasts.audience.csv.moreBadRows', { count: summary.badRows.length - BAD_ROWS_SHOWN })}
                </Typography>
              )}
            </Box>
          )}
        </Stack>
      )}
    </Stack>
  );
}

/** "5 contacts match; 3 can receive it.": the count and the reach each agree with their own number (in French). */
function audienceCount(t: TFunction, kind: 'contacts' | 'segment', preview: Pick<AudiencePreview, 'total' | 'recipients'>): string {
  return `${t(`broadcasts.audience.${kind}.count`, { count: preview.total })} ${t('broadcasts.audience.reach', { count: preview.recipients })}`;
}

function isUnfiltered(filter: BroadcastDraft['filter']): boolean {
  return !filter.term.trim() && filter.tags.length === 0 && filter.channels.length === 0;
}

/** Contacts of the company matching the spec's contact search filter; the count is asked as the filter changes. */
function ContactsFilterForm({ draft, update }: StepProps) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const tags = useTags();
  const channels = useAllChannels();
  const [preview, setPreview] = useState<{ status: 'idle' | 'loading' | 'error'; data?: AudiencePreview; error?: string }>({ status: 'idle' });
  const filterKey = JSON.stringify([draft.channelId, draft.filter]);

  useEffect(() => {
    if (draft.channelId === null) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setPreview((p) => ({ ...p, status: 'loading' }));
      previewAudience(http, { page_id: draft.channelId as number, audience: audienceOf(draft) }, controller.signal)
        .then((data) => setPreview({ status: 'idle', data }))
        .catch((err) => !controller.signal.aborted && setPreview({ status: 'error', error: errorText(err) }));
    }, 500);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the filter's content is the key
  }, [filterKey, http]);

  const tagOptions = tags.data ?? [];
  const channelOptions = channels.data ?? [];
  return (
    <Stack spacing={2}>
      <TextField
        label={t('broadcasts.audience.contacts.term')}
        helperText={t('broadcasts.audience.contacts.termHelp')}
        value={draft.filter.term}
        onChange={(e) => update({ filter: { ...draft.filter, term: e.target.value } })}
        inputProps={{ maxLength: 200 }}
      />
      <Autocomplete
        multiple
        options={tagOptions}
        getOptionLabel={(o) => o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={tagOptions.filter((o) => draft.filter.tags.some((x) => x.id === o.id))}
        onChange={(_, value) => update({ filter: { ...draft.filter, tags: value.map((v) => ({ id: v.id })) } })}
        loading={tags.isPending}
        renderInput={(params) => <TextField {...params} label={t('broadcasts.audience.contacts.tags')} />}
      />
      <Autocomplete
        multiple
        options={channelOptions}
        getOptionLabel={(o) => o.display_phone_number || o.name}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        value={channelOptions.filter((o) => draft.filter.channels.includes(o.id))}
        onChange={(_, value) => update({ filter: { ...draft.filter, channels: value.map((v) => v.id) } })}
        loading={channels.isPending}
        renderInput={(params) => <TextField {...params} label={t('broadcasts.audience.contacts.channels')} />}
      />
      <Box aria-live="polite" data-testid="contacts-count">
        {preview.status === 'loading' && <CircularProgress size={18} aria-label={t('broadcasts.common.loading')} />}
        {preview.status === 'error' && <Alert severity="error">{preview.error}</Alert>}
        {preview.status === 'idle' && preview.data && (
          <Typography>{audienceCount(t, 'contacts', preview.data)}</Typography>
        )}
        {/* This audience is the customers who wrote on WhatsApp, not the contact list: with none at all (no filter
            narrowing it), say so and offer the list's way in, a segment. */}
        {preview.status === 'idle' && preview.data?.total === 0 && isUnfiltered(draft.filter) && (
          <Alert
            severity="info"
            sx={{ mt: 1 }}
            action={
              <Button color="inherit" size="small" onClick={() => update({ audience: 'segment' })}>
                {t('broadcasts.audience.contacts.useSegment')}
              </Button>
            }
          >
            {t('broadcasts.audience.contacts.noneYet')}
          </Alert>
        )}
      </Box>
    </Stack>
  );
}

/** The audience's count as its choice changes (debounced), for the contacts filter and the segment. */
function useAudienceCount(draft: BroadcastDraft, ready: boolean) {
  const http = useApi(httpApiRef);
  const [preview, setPreview] = useState<{ status: 'idle' | 'loading' | 'error'; data?: AudiencePreview; error?: string }>({ status: 'idle' });
  const key = JSON.stringify([draft.channelId, audienceOf(draft), ready]);
  useEffect(() => {
    if (draft.channelId === null || !ready) {
      setPreview({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setPreview((p) => ({ ...p, status: 'loading' }));
      previewAudience(http, { page_id: draft.channelId as number, audience: audienceOf(draft) }, controller.signal)
        .then((data) => setPreview({ status: 'idle', data }))
        .catch((err) => !controller.signal.aborted && setPreview({ status: 'error', error: errorText(err) }));
    }, 500);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the audience's content is the key
  }, [key, http]);
  return preview;
}

/** A saved segment of the company's contacts (issue #23): its members at sending time, its count and who is left out. */
function SegmentForm({ draft, update }: StepProps) {
  const { t } = useTranslation();
  const segments = useSegments();
  const list = segments.data ?? [];
  const preview = useAudienceCount(draft, !!draft.segmentId);
  if (segments.isPending) return <CircularProgress size={24} aria-label={t('broadcasts.common.loading')} />;
  if (segments.isError) return <Alert severity="info">{t('broadcasts.audience.segment.forbidden')}</Alert>;
  if (!list.length) {
    return (
      <Alert severity="info">
        {t('broadcasts.audience.segment.none')}{' '}
        <Link component={RouterLink} to="/segments">
          {t('broadcasts.audience.segment.goTo')}
        </Link>
      </Alert>
    );
  }
  const excluded = preview.data?.excluded;
  return (
    <Stack spacing={2}>
      <FormControl>
        <InputLabel id="broadcast-segment-label">{t('broadcasts.audience.segment.label')}</InputLabel>
        <Select labelId="broadcast-segment-label" label={t('broadcasts.audience.segment.label')} value={draft.segmentId ?? ''} onChange={(e) => update({ segmentId: Number(e.target.value) })}>
          {list.map((s) => (
            <MenuItem key={s.id} value={s.id}>
              {s.name}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <Typography variant="body2" color="text.secondary">
        {t('broadcasts.audience.segment.help')}
      </Typography>
      <Box aria-live="polite" data-testid="segment-audience-count">
        {preview.status === 'loading' && <CircularProgress size={18} aria-label={t('broadcasts.common.loading')} />}
        {preview.status === 'error' && <Alert severity="error">{preview.error}</Alert>}
        {preview.status === 'idle' && preview.data && excluded && (
          <Stack spacing={0.5}>
            <Typography>{audienceCount(t, 'segment', preview.data)}</Typography>
            {preview.data.total > preview.data.recipients && (
              <Typography variant="body2" color="text.secondary">
                {t('broadcasts.audience.segment.excluded', { optedOut: excluded.opted_out, invalid: excluded.invalid_number, blocked: excluded.blocked, duplicate: excluded.duplicate })}
              </Typography>
            )}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}

/** Step 1: the broadcast's name, the WhatsApp number it is sent from, and who receives it. */
export function AudienceStep({ draft, update }: StepProps) {
  const { t } = useTranslation();
  const numbers = useWhatsAppChannels();
  const list = useMemo(() => numbers.data ?? [], [numbers.data]);

  // One number only: take it.
  useEffect(() => {
    if (draft.channelId === null && list.length === 1) update({ channelId: list[0].id });
  }, [draft.channelId, list, update]);

  return (
    <Stack spacing={3}>
      <TextField
        label={t('broadcasts.audience.name')}
        required
        value={draft.name}
        onChange={(e) => update({ name: e.target.value })}
        inputProps={{ maxLength: 200 }}
        helperText={t('broadcasts.audience.nameHelp')}
      />
      {numbers.isPending ? (
        <CircularProgress size={24} aria-label={t('broadcasts.common.loading')} />
      ) : list.length === 0 ? (
        <Alert severity="info">
          {t('broadcasts.audience.noNumber')}{' '}
          <Link component={RouterLink} to="/channels">
            {t('broadcasts.audience.goToChannels')}
          </Link>
        </Alert>
      ) : (
        <FormControl required>
          <InputLabel id="broadcast-number-label">{t('broadcasts.audience.number')}</InputLabel>
          <Select
            labelId="broadcast-number-label"
            label={t('broadcasts.audience.number')}
            value={draft.channelId ?? ''}
            onChange={(e) => {
              const channelId = Number(e.target.value);
              // Another number: its templates differ, and the CSV's exclusions are counted again.
              if (channelId !== draft.channelId) update({ channelId, templateName: null, templateLanguage: null, mapping: {}, headerMedia: null, csv: null, csvSummary: null });
            }}
          >
            {list.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.display_phone_number ? `${c.name} (${c.display_phone_number})` : c.name}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      )}
      <Box>
        <Typography variant="h6" component="h2" sx={{ mb: 1.5 }}>
          {t(`broadcasts.type.${draft.type}.title`)}
        </Typography>
        {draft.type === 'csv' ? (
          <CsvUpload draft={draft} update={update} />
        ) : (
          <Stack spacing={2}>
            <FormControl>
              <FormLabel id="broadcast-audience-kind">{t('broadcasts.audience.kind.label')}</FormLabel>
              <RadioGroup row aria-labelledby="broadcast-audience-kind" value={draft.audience ?? 'filter'} onChange={(e) => update({ audience: e.target.value as 'filter' | 'segment' })}>
                <FormControlLabel value="filter" control={<Radio />} label={t('broadcasts.audience.kind.filter')} />
                <FormControlLabel value="segment" control={<Radio />} label={t('broadcasts.audience.kind.segment')} />
              </RadioGroup>
            </FormControl>
            {draft.audience === 'segment' ? <SegmentForm draft={draft} update={update} /> : <ContactsFilterForm draft={draft} update={update} />}
          </Stack>
        )}
      </Box>
    </Stack>
  );
}

/** Can the stepper go on from the audience step? */
export function audienceComplete(draft: BroadcastDraft): boolean {
  if (!draft.name.trim() || draft.channelId === null) return false;
  if (draft.type === 'csv') return !!draft.csv && !!draft.csvSummary && draft.csvSummary.recipients > 0;
  if (draft.audience === 'segment') return !!draft.segmentId;
  return true;
}
