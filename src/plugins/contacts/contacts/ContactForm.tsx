import { AutocompleteArrayInput, SimpleForm, TextInput, type SimpleFormProps } from 'react-admin';
import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAttributes, useTags } from '../model/hooks';
import { validateEmail, validateName, validatePhone } from '../model/validation';
import { AttributeInputs } from './AttributeInputs';

/** The fields of a contact a person edits: name, phone, e-mail, tags (by name, new ones allowed) and the company's attributes. */
export function ContactForm(props: Omit<SimpleFormProps, 'children'>) {
  const { t } = useTranslation();
  const tags = useTags();
  const attributes = useAttributes();
  const choices = (tags.data ?? []).map((tag) => ({ id: tag.name, name: tag.name }));
  return (
    <SimpleForm {...props}>
      <TextInput source="name" label="contacts.fields.name" validate={validateName} fullWidth />
      <TextInput source="phone" label="contacts.fields.phone" validate={validatePhone} helperText={t('contacts.phoneHelp')} fullWidth />
      <TextInput source="email" label="contacts.fields.email" validate={validateEmail} type="email" fullWidth />
      <AutocompleteArrayInput
        source="tag_names"
        label="contacts.fields.tags"
        choices={choices}
        onCreate={(name) => (name?.trim() ? { id: name.trim(), name: name.trim() } : undefined)}
        fullWidth
      />
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        {t('contacts.fields.attributes')}
      </Typography>
      <AttributeInputs attributes={attributes.data ?? []} />
    </SimpleForm>
  );
}

/** What the API takes from the form: tags as names, nothing read-only. */
export function contactPayload(data: Record<string, unknown>): Record<string, unknown> {
  const { name, phone, email, attributes, tag_names } = data as { name?: string; phone?: string | null; email?: string | null; attributes?: Record<string, unknown>; tag_names?: string[] };
  const payload: Record<string, unknown> = { name, phone: phone || null, email: email || null, tags: tag_names ?? [] };
  if (attributes && Object.keys(attributes).length) payload.attributes = attributes;
  return payload;
}
