import { useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Step,
  StepLabel,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { mdiUpload } from '@mdi/js';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTACT_IMPORT_LIMITS, IMPORT_FIELDS, IMPORT_POLL_MS, type ContactImport, type ImportMapping, type ImportSkippedRow, type ImportTarget } from '../../../../contract/contactImports';
import type { ContactAttribute } from '../../../../contract/contacts';
import { httpApiRef, isHttpError, MdiIcon, useApi } from '../../../core';
import { useAttributes } from '../model/hooks';
import { browserCountry, countryOptions, guessImportMapping, hasKeyColumn, previewRows, sampleCsv, type CsvSample } from '../model/importModel';

const STEPS = ['file', 'mapping', 'preview', 'import'] as const;
type StepId = (typeof STEPS)[number];

/** A skipped row's reason in the console's language (the server's plain English is the fallback). */
export function useSkipReason(attributes: readonly ContactAttribute[]) {
  const { t } = useTranslation();
  const fieldName = (field: string | undefined) =>
    !field ? '' : (IMPORT_FIELDS as readonly string[]).includes(field) ? t(`contacts.fields.${field}`) : (attributes.find((a) => a.key === field)?.name ?? field);
  return (skip: Omit<ImportSkippedRow, 'row' | 'detail'> & { detail?: string }) =>
    t(`contacts.import.reasons.${skip.reason}`, { value: skip.value ?? '', field: fieldName(skip.field), row: skip.first_row ?? '', defaultValue: skip.detail ?? skip.reason });
}

function targetLabel(t: (key: string, options?: Record<string, unknown>) => string, target: ImportTarget, attributes: readonly ContactAttribute[]): string {
  if (target.startsWith('attribute:')) {
    const key = target.slice('attribute:'.length);
    return t('contacts.import.attribute', { name: attributes.find((a) => a.key === key)?.name ?? key });
  }
  return t(`contacts.fields.${target}`);
}

/** Step 1: the file. */
function FileStep({ onFile, error }: { onFile: (file: File) => void; error: string | null }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
      <Typography variant="body2">{t('contacts.import.fileHelp', { rows: CONTACT_IMPORT_LIMITS.rows.toLocaleString() })}</Typography>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        data-testid="import-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) onFile(file);
          e.target.value = '';
        }}
      />
      <Button variant="outlined" startIcon={<MdiIcon path={mdiUpload} fontSize="small" />} onClick={() => input.current?.click()}>
        {t('contacts.import.chooseFile')}
      </Button>
      {error && <Alert severity="error">{error}</Alert>}
    </Box>
  );
}

/** Step 2: where each column goes, and the default country of phone numbers. */
function MappingStep({
  sample,
  mapping,
  onMapping,
  country,
  onCountry,
  attributes,
}: {
  sample: CsvSample;
  mapping: ImportMapping;
  onMapping: (m: ImportMapping) => void;
  country: string;
  onCountry: (c: string) => void;
  attributes: readonly ContactAttribute[];
}) {
  const { t, i18n } = useTranslation();
  const targets: ImportTarget[] = [...IMPORT_FIELDS, ...attributes.map((a) => `attribute:${a.key}` as const)];
  const countries = useMemo(() => countryOptions(i18n.language), [i18n.language]);
  const choose = (column: string, target: ImportTarget | '') => {
    const next: ImportMapping = {};
    // A target goes to one column: the column that had it is left out.
    for (const [c, v] of Object.entries(mapping)) if (c !== column && v !== target) next[c] = v;
    if (target) next[column] = target;
    onMapping(next);
  };
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="body2">{t('contacts.import.mappingHelp')}</Typography>
      <Table size="small" aria-label={t('contacts.import.steps.mapping')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('contacts.import.column')}</TableCell>
            <TableCell>{t('contacts.import.example')}</TableCell>
            <TableCell>{t('contacts.import.target')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {sample.columns.map((column) => (
            <TableRow key={column}>
              <TableCell>{column}</TableCell>
              <TableCell sx={{ color: 'text.secondary', maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{sample.rows[0]?.cells[column] ?? ''}</TableCell>
              <TableCell>
                <TextField
                  select
                  size="small"
                  fullWidth
                  value={mapping[column] ?? ''}
                  onChange={(e) => choose(column, e.target.value as ImportTarget | '')}
                  slotProps={{ select: { displayEmpty: true }, htmlInput: { 'aria-label': t('contacts.import.targetOf', { column }) } }}
                >
                  <MenuItem value="">
                    <em>{t('contacts.import.ignore')}</em>
                  </MenuItem>
                  {targets.map((target) => (
                    <MenuItem key={target} value={target}>
                      {targetLabel(t, target, attributes)}
                    </MenuItem>
                  ))}
                </TextField>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {!hasKeyColumn(mapping) && <Alert severity="warning">{t('contacts.import.noKeyColumn')}</Alert>}
      <TextField select size="small" label={t('contacts.import.country')} helperText={t('contacts.import.countryHelp')} value={country} onChange={(e) => onCountry(e.target.value)} slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }} sx={{ maxWidth: 360 }}>
        <MenuItem value="">
          <em>{t('contacts.import.noCountry')}</em>
        </MenuItem>
        {countries.map((c) => (
          <MenuItem key={c.code} value={c.code}>
            {c.name} ({c.code})
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
}

/** Step 3: the first rows as they would be imported. */
function PreviewStep({ sample, mapping, country, attributes }: { sample: CsvSample; mapping: ImportMapping; country: string; attributes: readonly ContactAttribute[] }) {
  const { t } = useTranslation();
  const reason = useSkipReason(attributes);
  const rows = previewRows(sample, mapping, attributes, country || null);
  const attributeKeys = Object.values(mapping)
    .filter((target) => target.startsWith('attribute:'))
    .map((target) => target.slice('attribute:'.length));
  return (
    <Box sx={{ display: 'grid', gap: 2, overflowX: 'auto' }}>
      <Typography variant="body2">{t('contacts.import.previewHelp', { count: rows.length })}</Typography>
      <Table size="small" aria-label={t('contacts.import.steps.preview')}>
        <TableHead>
          <TableRow>
            <TableCell>{t('contacts.import.row')}</TableCell>
            <TableCell>{t('contacts.fields.name')}</TableCell>
            <TableCell>{t('contacts.fields.phone')}</TableCell>
            <TableCell>{t('contacts.fields.email')}</TableCell>
            <TableCell>{t('contacts.fields.tags')}</TableCell>
            {attributeKeys.map((key) => (
              <TableCell key={key}>{attributes.find((a) => a.key === key)?.name ?? key}</TableCell>
            ))}
            <TableCell>{t('contacts.import.status')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((r) => (
            <TableRow key={r.row} data-testid="import-preview-row">
              <TableCell>{r.row}</TableCell>
              <TableCell>{r.ok ? (r.values.name ?? '') : ''}</TableCell>
              <TableCell>{r.ok ? (r.values.phone ?? '') : ''}</TableCell>
              <TableCell>{r.ok ? (r.values.email ?? '') : ''}</TableCell>
              <TableCell>{r.ok ? r.values.tags.join(', ') : ''}</TableCell>
              {attributeKeys.map((key) => (
                <TableCell key={key}>{r.ok && r.values.attributes[key] !== undefined ? String(r.values.attributes[key]) : ''}</TableCell>
              ))}
              <TableCell>{r.ok ? <Chip size="small" color="success" label={t('contacts.import.ok')} /> : <Typography variant="body2" color="error">{reason(r.skip)}</Typography>}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

/** Step 4: the import's progress (polled), then its report. */
function ProgressStep({ id, attributes }: { id: number; attributes: readonly ContactAttribute[] }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const reason = useSkipReason(attributes);
  const status = useQuery({
    queryKey: ['contacts', 'import', id],
    queryFn: async ({ signal }) => (await http.get<ContactImport>(`/api/contacts/import/${id}/`, { signal }))!,
    refetchInterval: (query) => (query.state.data && (query.state.data.state === 'done' || query.state.data.state === 'failed') ? false : IMPORT_POLL_MS),
    retry: false,
  });
  const data = status.data;
  if (status.isError) return <Alert severity="error">{t('contacts.import.statusFailed')}</Alert>;
  if (!data) return <LinearProgress />;
  const finished = data.state === 'done' || data.state === 'failed';
  const percent = data.total ? Math.round((100 * data.processed) / data.total) : 0;
  return (
    <Box sx={{ display: 'grid', gap: 2 }}>
      <Typography variant="body2" data-testid="import-state">
        {t(`contacts.import.states.${data.state}`, { processed: data.processed.toLocaleString(), total: data.total.toLocaleString() })}
      </Typography>
      <LinearProgress variant="determinate" value={finished && data.state === 'done' ? 100 : percent} aria-label={t('contacts.import.progress')} />
      {data.state === 'failed' && data.error && <Alert severity="error">{t('contacts.import.failed', { error: data.error })}</Alert>}
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }} data-testid="import-counts">
        <Chip color="success" label={t('contacts.import.created', { count: data.created })} />
        <Chip color="info" label={t('contacts.import.updated', { count: data.updated })} />
        <Chip color={data.skipped_count ? 'warning' : 'default'} label={t('contacts.import.skipped', { count: data.skipped_count })} />
      </Box>
      {data.skipped.length > 0 && (
        <Box>
          <Typography variant="subtitle2">{t('contacts.import.skippedRows')}</Typography>
          <List dense aria-label={t('contacts.import.skippedRows')} sx={{ maxHeight: 260, overflowY: 'auto' }}>
            {data.skipped.map((s) => (
              <ListItem key={s.row} disableGutters data-testid="import-skipped-row">
                <ListItemText primary={t('contacts.import.skippedRow', { row: s.row, reason: reason(s) })} />
              </ListItem>
            ))}
          </List>
          {data.skipped_count > data.skipped.length && <Typography variant="caption">{t('contacts.import.moreSkipped', { count: data.skipped_count - data.skipped.length })}</Typography>}
        </Box>
      )}
    </Box>
  );
}

/** A file's text (FileReader: every browser, and the tests' DOM). */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(file);
  });
}

/** The import dialog (the contacts list's Import button): choose a file, map its columns, preview, import and follow. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose: (imported: boolean) => void }) {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const attributes = useAttributes().data ?? [];
  const [step, setStep] = useState<StepId>('file');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [sample, setSample] = useState<CsvSample | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [country, setCountry] = useState(() => browserCountry(typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]));
  const [importId, setImportId] = useState<number | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const reset = () => {
    setStep('file');
    setFile(null);
    setSample(null);
    setFileError(null);
    setMapping({});
    setImportId(null);
    setStartError(null);
  };
  const close = () => {
    onClose(importId !== null);
    reset();
  };

  const readFile = async (chosen: File) => {
    setFileError(null);
    if (chosen.size > CONTACT_IMPORT_LIMITS.bytes) return setFileError(t('contacts.import.tooLarge'));
    const text = await readText(chosen);
    const read = sampleCsv(text);
    if (!read || !read.rows.length) return setFileError(t('contacts.import.empty'));
    setFile({ name: chosen.name, text });
    setSample(read);
    setMapping(guessImportMapping(read.columns, attributes));
    setStep('mapping');
  };

  const start = async () => {
    if (!file) return;
    setStarting(true);
    setStartError(null);
    try {
      const answer = await http.post<{ id: number }>('/api/contacts/import/', new Blob([file.text], { type: 'text/csv' }), {
        query: { mapping: JSON.stringify(mapping), country: country || undefined, file_name: file.name },
      });
      setImportId(answer!.id);
      setStep('import');
    } catch (err) {
      const body = isHttpError(err) ? (err.body as { code?: string; id?: number } | null) : null;
      if (isHttpError(err) && body?.code === 'import_busy' && body.id) {
        setStartError(t('contacts.import.busy'));
        setImportId(body.id);
        setStep('import');
      } else setStartError(isHttpError(err) ? err.message : t('contacts.import.startFailed'));
    } finally {
      setStarting(false);
    }
  };

  const index = STEPS.indexOf(step);
  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="md" aria-labelledby="contacts-import-title">
      <DialogTitle id="contacts-import-title">{t('contacts.import.title')}</DialogTitle>
      <DialogContent sx={{ display: 'grid', gap: 3 }}>
        <Stepper activeStep={index} alternativeLabel>
          {STEPS.map((s) => (
            <Step key={s}>
              <StepLabel>{t(`contacts.import.steps.${s}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {file && step !== 'file' && (
          <Typography variant="body2" color="text.secondary">
            {t('contacts.import.fileName', { name: file.name })}
          </Typography>
        )}
        {step === 'file' && <FileStep onFile={(f) => void readFile(f)} error={fileError} />}
        {step === 'mapping' && sample && <MappingStep sample={sample} mapping={mapping} onMapping={setMapping} country={country} onCountry={setCountry} attributes={attributes} />}
        {step === 'preview' && sample && <PreviewStep sample={sample} mapping={mapping} country={country} attributes={attributes} />}
        {startError && <Alert severity={importId ? 'info' : 'error'}>{startError}</Alert>}
        {step === 'import' && importId !== null && <ProgressStep id={importId} attributes={attributes} />}
      </DialogContent>
      <DialogActions>
        {step === 'mapping' && <Button onClick={() => setStep('file')}>{t('contacts.import.back')}</Button>}
        {step === 'preview' && <Button onClick={() => setStep('mapping')}>{t('contacts.import.back')}</Button>}
        <Button onClick={close}>{t(step === 'import' ? 'contacts.import.close' : 'contacts.import.cancel')}</Button>
        {step === 'mapping' && (
          <Button variant="contained" disableElevation disabled={!hasKeyColumn(mapping)} onClick={() => setStep('preview')}>
            {t('contacts.import.next')}
          </Button>
        )}
        {step === 'preview' && (
          <Button variant="contained" disableElevation disabled={starting} onClick={() => void start()}>
            {t('contacts.import.start')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
