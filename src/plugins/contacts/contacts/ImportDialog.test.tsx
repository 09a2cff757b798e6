// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactImport } from '../../../../contract/contactImports';
import { membership, testUser } from '../../../core/account/testUsers';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { contactsPlugin } from '../index';
import { cityAttribute } from '../testing';
import { browserCountry, guessImportMapping, previewRows, sampleCsv } from '../model/importModel';
import { ImportDialog } from './ImportDialog';

const manager = testUser([membership(1, { can_view_chats: true, can_manage_chats: true }, { role: { id: 'manager', name: 'Manager' } })]);

const CSV = ['Full name;Téléphone;Courriel;Ville;Notes', 'Léa Martin;06 12 34 56 78;lea@example.com;Lyon;x', 'Bad;12;;;', 'Léa again;+33612345678;;;', 'Hugo;+14155550123;;Paris;'].join('\n');

describe('contact import model', () => {
  it('guesses the mapping from the header names and the attributes, and previews the first rows through the import rules', () => {
    const sample = sampleCsv(CSV)!;
    expect(sample.columns).toEqual(['Full name', 'Téléphone', 'Courriel', 'Ville', 'Notes']);
    const mapping = guessImportMapping(sample.columns, [{ ...cityAttribute, name: 'Ville', key: 'city' }]);
    expect(mapping).toEqual({ 'Full name': 'name', Téléphone: 'phone', Courriel: 'email', Ville: 'attribute:city' });
    const rows = previewRows(sample, mapping, [{ ...cityAttribute, name: 'Ville' }], 'FR');
    expect(rows.map((r) => [r.row, r.ok ? r.values.phone : r.skip.reason])).toEqual([
      [2, '+33612345678'],
      [3, 'invalid_phone'],
      [4, 'duplicate'],
      [5, '+14155550123'],
    ]);
    expect(rows[0]).toMatchObject({ ok: true, values: { name: 'Léa Martin', email: 'lea@example.com', attributes: { city: 'Lyon' } } });
    // Without a default country, a national number is not valid.
    expect(previewRows(sample, mapping, [], null)[0]).toMatchObject({ ok: false, skip: { reason: 'invalid_phone' } });
    expect(browserCountry(['fr-FR', 'en'])).toBe('FR');
    expect(browserCountry(['en'])).toBe('');
  });
});

describe('the import dialog', () => {
  it('chooses a file, shows the guessed mapping and the preview, starts the import and lists the skipped rows', async () => {
    let polls = 0;
    const report = (state: ContactImport['state'], processed: number): ContactImport => ({
      id: 7,
      state,
      file_name: 'clients.csv',
      total: 4,
      processed,
      created: state === 'done' ? 2 : 0,
      updated: 0,
      skipped_count: state === 'done' ? 2 : 0,
      skipped:
        state === 'done'
          ? [
              { row: 3, reason: 'invalid_phone', field: 'phone', value: '12', detail: 'Not a valid phone number: "12".' },
              { row: 4, reason: 'duplicate', field: 'phone', value: '+33612345678', first_row: 2, detail: 'Duplicate: the same phone number is on row 2.' },
            ]
          : [],
      error: null,
      created_at: '2026-11-27T10:00:00Z',
      finished_at: state === 'done' ? '2026-11-27T10:00:01Z' : null,
    });
    const http = createFakeHttp((method, path) => {
      if (path === '/api/contact-attributes/') return { count: 1, results: [{ ...cityAttribute, type: 'text', name: 'Ville' }] };
      if (method === 'POST' && path === '/api/contacts/import/') return { id: 7 };
      if (path === '/api/contacts/import/7/') return (polls += 1) === 1 ? report('running', 1) : report('done', 4);
      throw new Error(`unexpected ${method} ${path}`);
    });
    renderPluginPage(<ImportDialog open onClose={() => {}} />, { plugins: [contactsPlugin], features: ['contacts'], companyId: 1, signedIn: true, path: '/contacts', http, user: manager });
    await waitFor(() => expect(http.calls.some((c) => c.path === '/api/contact-attributes/')).toBe(true));
    await userEvent.upload(await screen.findByTestId('import-file'), new File([CSV], 'clients.csv', { type: 'text/csv' }));

    const mappingTable = await screen.findByRole('table', { name: 'Map columns' });
    const rowOf = (column: string) => within(mappingTable).getByText(column).closest('tr')!;
    expect(within(rowOf('Full name')).getByText('Name')).toBeTruthy();
    expect(within(rowOf('Téléphone')).getByText('Phone')).toBeTruthy();
    expect(within(rowOf('Courriel')).getByText('E-mail')).toBeTruthy();
    expect(within(rowOf('Ville')).getByText('Attribute: Ville')).toBeTruthy();
    expect(within(rowOf('Notes')).getByText('Ignore')).toBeTruthy();

    // The default country: France reads the national number of row 2.
    await userEvent.click(within(screen.getByText('Default country').closest('div')!).getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: /\(FR\)$/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Next' }));

    const preview = await screen.findAllByTestId('import-preview-row');
    expect(preview).toHaveLength(4);
    expect(within(preview[0]).getByText('+33612345678')).toBeTruthy();
    expect(within(preview[0]).getByText('Lyon')).toBeTruthy();
    expect(within(preview[1]).getByText('Not a valid phone number: "12".')).toBeTruthy();
    expect(within(preview[2]).getByText('Duplicate of row 2 (+33612345678).')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Start import' }));
    const post = http.calls.find((c) => c.method === 'POST')!;
    expect(JSON.parse(String(post.options.query?.mapping))).toEqual({ 'Full name': 'name', Téléphone: 'phone', Courriel: 'email', Ville: 'attribute:city' });
    expect(post.options.query).toMatchObject({ country: 'FR', file_name: 'clients.csv' });
    expect(post.options.body).toBeInstanceOf(Blob);

    const skipped = await screen.findAllByTestId('import-skipped-row', {}, { timeout: 4000 });
    expect(skipped.map((row) => row.textContent)).toEqual(['Row 3: Not a valid phone number: "12".', 'Row 4: Duplicate of row 2 (+33612345678).']);
    expect(screen.getByTestId('import-state').textContent).toBe('Import finished: 4 rows read.');
    expect(within(screen.getByTestId('import-counts')).getByText('2 created')).toBeTruthy();
  });
});
