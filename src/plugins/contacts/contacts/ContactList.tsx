import { Alert, Box } from '@mui/material';
import { mdiDownload, mdiUpload } from '@mdi/js';
import { useState } from 'react';
import { Button } from '@mui/material';
import { CreateButton, DataTable, List, SearchInput, SelectArrayInput, SelectInput, TopToolbar, useListContext, useNotify, useRefresh } from 'react-admin';
import { useTranslation } from 'react-i18next';
import type { Contact } from '../../../../contract/contacts';
import { CONTACT_PAGE_SIZES } from '../../../../contract/contacts';
import { ConsolePagination, EmptyView, httpApiRef, MdiIcon, useAccess, useApi, useIsPhone } from '../../../core';
import { ContactsTabs } from '../ContactsTabs';
import { downloadContacts, type ContactListFilter } from '../model/contactQuery';
import { useChannels, useTags } from '../model/hooks';
import { useSegments } from '../segments/useSegments';
import { ContactBulkActions } from './ContactBulkActions';
import { DateCell, NameCell, PhoneContactCell, TagsCell } from './cells';
import { ImportDialog } from './ImportDialog';

function ExportButton() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const notify = useNotify();
  const { filterValues } = useListContext();
  return (
    <Button size="small" startIcon={<MdiIcon path={mdiDownload} fontSize="small" />} onClick={() => downloadContacts(http, filterValues as ContactListFilter).catch(() => notify('contacts.exportFailed', { type: 'error' }))}>
      {t('contacts.exportAll')}
    </Button>
  );
}

/** Opens the CSV import (only for members who may manage contacts); the list reloads once an import was started. */
function ImportButton() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" startIcon={<MdiIcon path={mdiUpload} fontSize="small" />} onClick={() => setOpen(true)}>
        {t('contacts.import.button')}
      </Button>
      {open && (
        <ImportDialog
          open
          onClose={(imported) => {
            setOpen(false);
            if (imported) refresh();
          }}
        />
      )}
    </>
  );
}

function Actions({ canManage }: { canManage: boolean }) {
  return (
    <TopToolbar>
      <ExportButton />
      {canManage && <ImportButton />}
      {canManage && <CreateButton />}
    </TopToolbar>
  );
}

/** /contacts: the company's contacts with the spec's contact search (term, tags, channels) or a segment, sorting, paging, bulk tag/untag and export. */
export function ContactList() {
  const { t } = useTranslation();
  const { canManage } = useAccess('chats');
  const tags = useTags();
  const channels = useChannels();
  const segments = useSegments();
  const phone = useIsPhone();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={t('contacts.filters.search')} sx={{ minWidth: { sm: 300 } }} />,
    <SelectArrayInput key="tags" source="tags" label="contacts.filters.tags" choices={(tags.data ?? []).map((tag) => ({ id: tag.id, name: tag.name }))} />,
    <SelectArrayInput key="channels" source="channels" label="contacts.filters.channels" choices={(channels.data ?? []).map((c) => ({ id: c.id, name: c.name }))} />,
    <SelectInput key="segment" source="segment" label="contacts.segments.filter" choices={(segments.data ?? []).map((s) => ({ id: s.id, name: s.name }))} />,
  ];
  return (
    <Box>
      <ContactsTabs current="contacts" />
      {!canManage && (
        <Alert severity="info" sx={{ mx: { xs: 2, md: 3 }, mt: 2 }}>
          {t('contacts.readOnly')}
        </Alert>
      )}
      <List<Contact>
        resource="contacts"
        title={false}
        filters={filters}
        sort={{ field: 'last_message_at', order: 'DESC' }}
        perPage={25}
        actions={<Actions canManage={canManage} />}
        pagination={<ConsolePagination rowsPerPageOptions={[...CONTACT_PAGE_SIZES]} />}
        empty={<EmptyView title={t('contacts.empty.title')} message={t('contacts.empty.message')} />}
        disableSyncWithLocation={false}
        sx={{ px: { xs: 1, md: 2 } }}
      >
        <DataTable<Contact> rowClick={canManage ? 'edit' : 'show'} bulkActionButtons={<ContactBulkActions canManage={canManage} />}>
          {phone ? (
            // A phone: the contact in one stacked cell, nothing scrolled sideways.
            <DataTable.Col source="name" label="contacts.fields.name">
              <PhoneContactCell />
            </DataTable.Col>
          ) : (
            [
              <DataTable.Col key="name" source="name" label="contacts.fields.name">
                <NameCell />
              </DataTable.Col>,
              <DataTable.Col key="phone" source="phone" label="contacts.fields.phone" />,
              <DataTable.Col key="email" source="email" label="contacts.fields.email" />,
              <DataTable.Col key="tags" source="tags" label="contacts.fields.tags" disableSort>
                <TagsCell />
              </DataTable.Col>,
              <DataTable.Col key="last" source="last_message_at" label="contacts.fields.last_message_at">
                <DateCell source="last_message_at" />
              </DataTable.Col>,
            ]
          )}
        </DataTable>
      </List>
    </Box>
  );
}
