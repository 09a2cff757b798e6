import { useState } from 'react';
import { Alert, Box, Chip, Divider, Link, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import type { Contact } from '../../../../contract/contacts';
import { errorText, useAccess } from '../../../core';
import { ContactBroadcasts } from '../contacts/ContactBroadcasts';
import { ContactRooms } from '../contacts/ContactRooms';
import { formatAttribute } from '../model/format';
import { useAttributes } from '../model/hooks';
import { validateEmail, validatePhone } from '../model/validation';
import { InlineField } from './InlineField';

/** The contact panel's content: details and attributes (editable in place by those who may manage chats), tags, opt-out state, conversations. */
export function ContactPanelBody({ contact, roomId, onOpenRoom, update }: { contact: Contact; roomId: number; onOpenRoom: (roomId: number) => void; update: (patch: Record<string, unknown>) => Promise<void> }) {
  const { t } = useTranslation();
  const { canManage } = useAccess('chats');
  const attributes = useAttributes();
  const [tag, setTag] = useState('');
  const [tagError, setTagError] = useState<string | null>(null);
  const addTag = async () => {
    if (!tag.trim()) return;
    try {
      await update({ add_tags: [tag.trim()] });
      setTag('');
      setTagError(null);
    } catch (err) {
      setTagError(errorText(err));
    }
  };
  return (
    <Stack spacing={1.5} data-testid="contact-panel-body">
      <InlineField label={t('contacts.fields.name')} value={contact.name} canEdit={canManage} onSave={(name) => update({ name: name ?? '' })} validate={(v) => (v.trim() ? undefined : 'contacts.validation.required')} />
      <InlineField label={t('contacts.fields.phone')} type="tel" value={contact.phone} canEdit={canManage} onSave={(phone) => update({ phone })} validate={(v) => validatePhone(v)} />
      <InlineField label={t('contacts.fields.email')} type="email" value={contact.email} canEdit={canManage} onSave={(email) => update({ email })} validate={(v) => validateEmail(v)} />
      <Chip size="small" color={contact.opted_out ? 'warning' : 'default'} label={t(contact.opted_out ? 'contacts.optedOut' : 'contacts.optedIn')} sx={{ alignSelf: 'flex-start' }} />
      <Divider />
      <Typography variant="subtitle2">{t('contacts.fields.attributes')}</Typography>
      {attributes.data?.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('contacts.attributes.noneOnContact')}
        </Typography>
      )}
      {(attributes.data ?? []).map((a) => (
        <InlineField
          key={a.key}
          label={a.name}
          type={a.type}
          options={a.options}
          value={contact.attributes[a.key]}
          display={formatAttribute(a, contact.attributes[a.key], t)}
          canEdit={canManage}
          onSave={(value) => update({ attributes: { [a.key]: value } })}
        />
      ))}
      <Divider />
      <Typography variant="subtitle2">{t('contacts.fields.tags')}</Typography>
      <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
        {contact.tags.map((tg) => (
          <Chip key={tg.id} size="small" label={tg.name} onDelete={canManage ? () => void update({ remove_tags: [tg.name] }) : undefined} />
        ))}
      </Stack>
      {canManage && (
        <TextField
          size="small"
          label={t('contacts.panel.addTag')}
          value={tag}
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && void addTag()}
          error={!!tagError}
          helperText={tagError ?? undefined}
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
      )}
      {!canManage && <Alert severity="info">{t('contacts.readOnly')}</Alert>}
      <Divider />
      <Typography variant="subtitle2">{t('contacts.panel.earlier')}</Typography>
      <ContactRooms rooms={contact.rooms} currentRoomId={roomId} onOpen={onOpenRoom} />
      {contact.broadcasts && (
        <>
          <Typography variant="subtitle2">{t('contacts.broadcasts.title')}</Typography>
          <ContactBroadcasts broadcasts={contact.broadcasts} />
        </>
      )}
      <Box>
        <Link component={RouterLink} to={`/contacts/${contact.id}${canManage ? '' : '/show'}`} variant="body2">
          {t('contacts.panel.openContact')}
        </Link>
      </Box>
    </Stack>
  );
}
