// @vitest-environment jsdom
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { accountApiRef, createConsole } from '../../../core';
import { broadcastsPlugin } from '../index';
import { clearAllDrafts, clearDraft, draftKey, emptyDraft, loadDraft, saveDraft } from './draft';

describe('broadcast drafts', () => {
  beforeEach(() => localStorage.clear());

  it('keeps one draft per company and type', () => {
    saveDraft(1, { ...emptyDraft('csv'), name: 'Spring sale', step: 2 });
    saveDraft(2, { ...emptyDraft('csv'), name: 'Northwind news' });
    saveDraft(1, { ...emptyDraft('contacts'), name: 'VIP customers' });
    expect(loadDraft(1, 'csv')).toMatchObject({ name: 'Spring sale', step: 2, type: 'csv' });
    expect(loadDraft(2, 'csv').name).toBe('Northwind news');
    expect(loadDraft(1, 'contacts').name).toBe('VIP customers');
    expect(loadDraft(2, 'contacts')).toEqual(emptyDraft('contacts'));
    clearDraft(1, 'csv');
    expect(loadDraft(1, 'csv')).toEqual(emptyDraft('csv'));
    expect(loadDraft(1, 'contacts').name).toBe('VIP customers');
  });

  it('starts afresh from a damaged or foreign draft, and keeps the step in range', () => {
    localStorage.setItem(draftKey(1, 'csv'), '{not json');
    expect(loadDraft(1, 'csv')).toEqual(emptyDraft('csv'));
    localStorage.setItem(draftKey(1, 'csv'), JSON.stringify({ ...emptyDraft('contacts'), name: 'x' }));
    expect(loadDraft(1, 'csv')).toEqual(emptyDraft('csv'));
    localStorage.setItem(draftKey(1, 'csv'), JSON.stringify({ ...emptyDraft('csv'), step: 42 }));
    expect(loadDraft(1, 'csv').step).toBe(3);
  });

  it('a CSV too large for the storage is left out, and the draft goes back to the audience step', () => {
    const original = Storage.prototype.setItem;
    let calls = 0;
    const spy = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key: string, value: string) {
      calls += 1;
      if (value.includes('huge-file-content')) throw new DOMException('full', 'QuotaExceededError');
      original.call(this, key, value);
    });
    try {
      saveDraft(1, { ...emptyDraft('csv'), name: 'Big', step: 3, csv: { fileName: 'big.csv', text: 'phone\nhuge-file-content' } });
    } finally {
      spy.mockRestore();
    }
    expect(calls).toBe(2);
    const loaded = loadDraft(1, 'csv');
    expect(loaded).toMatchObject({ name: 'Big', csv: null, csvTooLarge: 'big.csv', step: 0 });
  });

  it('clearAllDrafts removes every company’s drafts and nothing else', () => {
    saveDraft(1, { ...emptyDraft('csv'), name: 'a' });
    saveDraft(2, { ...emptyDraft('contacts'), name: 'b' });
    localStorage.setItem('chats.unread', '{}');
    clearAllDrafts();
    expect(loadDraft(1, 'csv')).toEqual(emptyDraft('csv'));
    expect(loadDraft(2, 'contacts')).toEqual(emptyDraft('contacts'));
    expect(localStorage.getItem('chats.unread')).toBe('{}');
  });

  it('sign-out clears the drafts (spec §4: sign-out clears broadcast state); a company switch keeps them', () => {
    const console = createConsole({ plugins: [broadcastsPlugin], features: ['triggers'] });
    const account = console.get(accountApiRef);
    saveDraft(1, { ...emptyDraft('csv'), name: 'Kept across a switch' });
    account.selectCompany(2);
    expect(loadDraft(1, 'csv').name).toBe('Kept across a switch');
    account.clear();
    expect(loadDraft(1, 'csv')).toEqual(emptyDraft('csv'));
  });
});
