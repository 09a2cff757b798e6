import { useState } from 'react';
import { Box, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { mdiCheck, mdiClose, mdiPencilOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { ContactAttributeType } from '../../../../contract/contacts';
import { errorText, MdiIcon } from '../../../core';

export interface InlineFieldProps {
  label: string;
  value: string | number | boolean | null | undefined;
  /** Shown instead of the raw value (a translated yes/no). */
  display?: string | null;
  type?: ContactAttributeType | 'email' | 'tel';
  options?: string[];
  canEdit: boolean;
  onSave: (value: string | null) => Promise<void>;
  validate?: (value: string) => string | undefined;
}

/** One labelled value of the contact panel; those who may manage chats change it in place (Enter saves, Escape cancels). */
export function InlineField({ label, value, display, type = 'text', options = [], canEdit, onSave, validate }: InlineFieldProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const shown = display ?? (value === null || value === undefined || value === '' ? null : String(value));
  const save = async () => {
    if (draft === null) return;
    const problem = validate?.(draft);
    if (problem) return setError(t(problem));
    setSaving(true);
    try {
      await onSave(draft.trim() === '' ? null : draft);
      setDraft(null);
      setError(null);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setSaving(false);
    }
  };
  if (draft !== null) {
    const select = type === 'list' || type === 'boolean';
    const choices = type === 'boolean' ? [{ v: 'true', l: t('contacts.yes') }, { v: 'false', l: t('contacts.no') }] : options.map((o) => ({ v: o, l: o }));
    return (
      <Stack direction="row" spacing={0.5} alignItems="flex-start">
        <TextField
          autoFocus
          size="small"
          fullWidth
          label={label}
          select={select}
          type={type === 'number' ? 'number' : type === 'date' ? 'date' : type === 'email' ? 'email' : type === 'tel' ? 'tel' : 'text'}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !select) void save();
            if (e.key === 'Escape') setDraft(null);
          }}
          error={!!error}
          helperText={error ?? undefined}
          slotProps={{ inputLabel: { shrink: true } }}
        >
          {select && [<MenuItem key="" value="">{t('contacts.noValue')}</MenuItem>, ...choices.map((c) => <MenuItem key={c.v} value={c.v}>{c.l}</MenuItem>)]}
        </TextField>
        <IconButton size="small" aria-label={t('contacts.panel.save')} disabled={saving} onClick={() => void save()}>
          <MdiIcon path={mdiCheck} fontSize="small" />
        </IconButton>
        <IconButton size="small" aria-label={t('contacts.panel.cancel')} onClick={() => setDraft(null)}>
          <MdiIcon path={mdiClose} fontSize="small" />
        </IconButton>
      </Stack>
    );
  }
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography variant="caption" color="text.secondary" component="div">
          {label}
        </Typography>
        <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
          {shown ?? t('contacts.noValue')}
        </Typography>
      </Box>
      {canEdit && (
        <IconButton size="small" aria-label={t('contacts.panel.edit', { field: label })} onClick={() => setDraft(value === null || value === undefined ? '' : String(value))}>
          <MdiIcon path={mdiPencilOutline} fontSize="small" />
        </IconButton>
      )}
    </Box>
  );
}
