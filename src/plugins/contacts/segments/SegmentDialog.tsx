import { useState } from 'react';
import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { EMPTY_SEGMENT_CONDITIONS, type Segment, type SegmentConditions } from '../../../../contract/segments';
import { errorBody } from '../../../core';
import { useAttributes, useChannels, useTags } from '../model/hooks';
import { ConditionBuilder } from './ConditionBuilder';
import { useSegmentCount } from './useSegmentCount';

export interface SegmentDraft {
  name: string;
  conditions: SegmentConditions;
}

/** The count of the conditions as they are edited (debounced), or the reason they cannot be counted. */
export function LiveCount({ conditions }: { conditions: SegmentConditions }) {
  const { t } = useTranslation();
  const { count, loading, errors } = useSegmentCount(conditions);
  const problems = Object.keys(errors).length > 0;
  return (
    <Stack direction="row" spacing={1} alignItems="center" aria-live="polite" data-testid="segment-count">
      {loading && <CircularProgress size={16} aria-label={t('contacts.segments.counting')} />}
      <Typography variant="subtitle1" fontWeight={600}>
        {problems ? t('contacts.segments.cannotCount') : count === null ? t('contacts.segments.counting') : t('contacts.segments.count', { count })}
      </Typography>
    </Stack>
  );
}

/** Create or edit a segment: its name and the condition builder, with the live count of its contacts; read-only without chats manage. */
export function SegmentDialog({ segment, readOnly, onClose, onSave }: { segment: Segment | null; readOnly?: boolean; onClose: () => void; onSave: (draft: SegmentDraft) => Promise<void> }) {
  const { t } = useTranslation();
  const attributes = useAttributes();
  const tags = useTags();
  const channels = useChannels();
  const [name, setName] = useState(segment?.name ?? '');
  const [conditions, setConditions] = useState<SegmentConditions>(segment?.conditions ?? EMPTY_SEGMENT_CONDITIONS);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const { errors: countErrors } = useSegmentCount(conditions);
  const save = async () => {
    setSaving(true);
    try {
      await onSave({ name: name.trim(), conditions });
    } catch (error) {
      const body = errorBody(error);
      setErrors(body && typeof body === 'object' && !('detail' in body) ? (body as Record<string, string[]>) : { name: [String((error as Error).message)] });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{segment ? segment.name : t('contacts.segments.add')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {readOnly && <Alert severity="info">{t('contacts.segments.readOnly')}</Alert>}
          <TextField
            autoFocus={!readOnly}
            size="small"
            label={t('contacts.segments.name')}
            value={name}
            disabled={readOnly}
            onChange={(e) => setName(e.target.value)}
            error={!!errors.name}
            helperText={errors.name?.[0]}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <ConditionBuilder
            value={conditions}
            onChange={setConditions}
            attributes={attributes.data ?? []}
            tags={tags.data ?? []}
            channels={channels.data ?? []}
            errors={{ ...countErrors, ...errors }}
            disabled={readOnly}
          />
          <LiveCount conditions={conditions} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{readOnly ? t('contacts.segments.close') : t('contacts.segments.cancel')}</Button>
        {!readOnly && (
          <Button variant="contained" disableElevation disabled={saving || !name.trim()} onClick={save}>
            {t('contacts.segments.save')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
