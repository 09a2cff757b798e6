import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { attributeKeyFrom, CONTACT_ATTRIBUTE_TYPES, type ContactAttribute, type ContactAttributeType } from '../../../../contract/contacts';
import { errorBody } from '../../../core';

export interface AttributeDraft {
  name: string;
  key: string;
  type: ContactAttributeType;
  options: string[];
}

/** Define an attribute (name, key, type, options) or change one's name and options (its key and type stay). */
export function AttributeDialog({ attribute, onClose, onSave }: { attribute: ContactAttribute | null; onClose: () => void; onSave: (draft: AttributeDraft) => Promise<void> }) {
  const { t } = useTranslation();
  const [name, setName] = useState(attribute?.name ?? '');
  const [key, setKey] = useState(attribute?.key ?? '');
  const [keyTouched, setKeyTouched] = useState(!!attribute);
  const [type, setType] = useState<ContactAttributeType>(attribute?.type ?? 'text');
  const [options, setOptions] = useState((attribute?.options ?? []).join('\n'));
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const fieldError = (field: string) => errors[field]?.[0];
  const save = async () => {
    setSaving(true);
    try {
      await onSave({ name: name.trim(), key: key.trim(), type, options: options.split('\n').map((o) => o.trim()).filter(Boolean) });
    } catch (error) {
      const body = errorBody(error);
      setErrors(body && typeof body === 'object' && !('detail' in body) ? (body as Record<string, string[]>) : { name: [String((error as Error).message)] });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{attribute ? attribute.name : t('contacts.attributes.add')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            autoFocus
            label={t('contacts.attributes.name')}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              if (!keyTouched) setKey(attributeKeyFrom(e.target.value));
            }}
            error={!!fieldError('name')}
            helperText={fieldError('name')}
            slotProps={{ htmlInput: { maxLength: 100 } }}
          />
          <TextField
            label={t('contacts.attributes.key')}
            value={key}
            disabled={!!attribute}
            onChange={(e) => {
              setKeyTouched(true);
              setKey(e.target.value);
            }}
            error={!!fieldError('key')}
            helperText={fieldError('key') ?? t('contacts.attributes.keyHelp')}
            slotProps={{ htmlInput: { maxLength: 64 } }}
          />
          <TextField select label={t('contacts.attributes.type')} value={type} disabled={!!attribute} onChange={(e) => setType(e.target.value as ContactAttributeType)}>
            {CONTACT_ATTRIBUTE_TYPES.map((value) => (
              <MenuItem key={value} value={value}>
                {t(`contacts.attributes.types.${value}`)}
              </MenuItem>
            ))}
          </TextField>
          {type === 'list' && (
            <TextField
              multiline
              minRows={3}
              label={t('contacts.attributes.options')}
              value={options}
              onChange={(e) => setOptions(e.target.value)}
              error={!!fieldError('options')}
              helperText={fieldError('options') ?? t('contacts.attributes.optionsHelp')}
            />
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('contacts.attributes.cancel')}</Button>
        <Button variant="contained" disableElevation disabled={saving || !name.trim() || !key.trim()} onClick={save}>
          {t('contacts.attributes.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
