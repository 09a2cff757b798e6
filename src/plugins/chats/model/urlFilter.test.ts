import { describe, expect, it } from 'vitest';
import { room } from '../testing/fakeChatServer';
import { roomMatches } from './rooms';
import { isUnassigned, searchWithUnassigned, UNASSIGNED_CHATS_PATH, unassignedFromSearch } from './urlFilter';

describe('the inbox filter in the URL', () => {
  it('reads ?filter=unassigned, and nothing else, as the unassigned filter', () => {
    expect(unassignedFromSearch('?filter=unassigned')).toBe(true);
    expect(unassignedFromSearch(new URLSearchParams('x=1&filter=unassigned'))).toBe(true);
    expect(unassignedFromSearch('')).toBe(false);
    expect(unassignedFromSearch('?filter=assigned')).toBe(false);
    expect(unassignedFromSearch('?filter=Unassigned')).toBe(false);
    expect(UNASSIGNED_CHATS_PATH).toBe('/chats?filter=unassigned');
  });
  it('sets and clears it, keeping the other parameters', () => {
    expect(searchWithUnassigned('', true)).toBe('?filter=unassigned');
    expect(searchWithUnassigned('?filter=unassigned', false)).toBe('');
    expect(searchWithUnassigned('?x=1', true)).toBe('?x=1&filter=unassigned');
    expect(searchWithUnassigned('?x=1&filter=unassigned', false)).toBe('?x=1');
  });
  it('counts a room as assigned when it has an assignee (issue #22)', () => {
    expect(isUnassigned(room(1))).toBe(true);
    expect(isUnassigned(room(1, { assignee: { id: 3, first_name: 'Ann', email: 'ann@demo.test' }, tags: [{ id: 2, name: 'ann@demo.test' }] }))).toBe(false);
  });
  it('from a server without assignees: when it carries an agent tag (an e-mail-like tag), as contract/stats.ts does', () => {
    const legacy = (patch: Parameters<typeof room>[1] = {}) => {
      const { assignee: _dropped, ...rest } = room(1, patch);
      return rest;
    };
    expect(isUnassigned(legacy())).toBe(true);
    expect(isUnassigned(legacy({ tags: [{ id: 1, name: 'vip' }] }))).toBe(true);
    expect(isUnassigned(legacy({ tags: [{ id: 1, name: 'vip' }, { id: 2, name: 'ann@demo.test' }] }))).toBe(false);
  });
  it('leaves assigned rooms out of the list under the filter, alongside the contact search', () => {
    const free = room(1, { name: 'Zoé', tags: [{ id: 1, name: 'vip' }] });
    const taken = room(2, { name: 'Zoé Martin', tags: [{ id: 2, name: 'ann@demo.test' }], assignee: { id: 3, first_name: 'Ann', email: 'ann@demo.test' } });
    const f = { term: 'zoé', tags: [], channels: [], unassigned: true };
    expect(roomMatches(free, f)).toBe(true);
    expect(roomMatches(taken, f)).toBe(false);
    expect(roomMatches(taken, { ...f, unassigned: false })).toBe(true);
    expect(roomMatches(free, { ...f, term: 'bob' })).toBe(false);
  });
});
