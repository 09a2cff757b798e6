import { BooleanInput, DateInput, NumberInput, SelectInput, TextInput } from 'react-admin';
import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import type { ContactAttribute } from '../../../../contract/contacts';

/** One input per attribute the company defined, by its type, under `attributes.<key>`. */
export function AttributeInputs({ attributes }: { attributes: ContactAttribute[] }) {
  const { t } = useTranslation();
  if (!attributes.length) return <Typography variant="body2" color="text.secondary">{t('contacts.attributes.noneOnContact')}</Typography>;
  return (
    <>
      {attributes.map((a) => {
        const props = { source: `attributes.${a.key}`, label: a.name, fullWidth: true } as const;
        switch (a.type) {
          case 'number':
            return <NumberInput key={a.key} {...props} />;
          case 'date':
            return <DateInput key={a.key} {...props} />;
          case 'boolean':
            return <BooleanInput key={a.key} source={`attributes.${a.key}`} label={a.name} />;
          case 'list':
            return <SelectInput key={a.key} {...props} choices={a.options.map((o) => ({ id: o, name: o }))} emptyText={t('contacts.noValue')} />;
          default:
            return <TextInput key={a.key} {...props} />;
        }
      })}
    </>
  );
}
