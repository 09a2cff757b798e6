// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContactAttribute } from '../../../../contract/contacts';
import type { Segment, SegmentConditions } from '../../../../contract/segments';
import { HttpError } from '../../../core';
import { membership, testUser } from '../../../core/account/testUsers';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { renderPluginPage } from '../../../core/testing/renderPluginPage';
import { contactsPlugin } from '../index';
import { cityAttribute } from '../testing';
import { SegmentList } from './SegmentList';

const manager = testUser([membership(1, { can_view_chats: true, can_manage_chats: true }, { role: { id: 'manager', name: 'Manager' } })]);
const viewer = testUser([membership(1, { can_view_chats: true, can_manage_chats: false }, { role: { id: 'agent', name: 'Agent' } })]);
const ordersAttribute: ContactAttribute = { id: 2, name: 'Orders', key: 'orders', type: 'number', options: [], created_at: '2026-11-01T10:00:00Z' };

/** Five contacts: Lyon ×2 (orders 1 and 5), Paris ×1 (orders 4), two without a city. The count follows the conditions like the server. */
const CONTACTS = [
  { city: 'Lyon', orders: 1 },
  { city: 'Lyon', orders: 5 },
  { city: 'Paris', orders: 4 },
  { orders: 0 },
  {},
] as Record<string, string | number>[];

function countOf(conditions: SegmentConditions): number {
  return CONTACTS.filter((c) =>
    conditions.attributes.every((a) => {
      const v = c[a.key];
      if (a.op === 'eq') return v === a.value;
      if (a.op === 'in') return (a.value as string[]).includes(String(v));
      if (a.op === 'gt') return typeof v === 'number' && v > Number(a.value);
      throw new Error(`op ${a.op}`);
    }),
  ).length;
}

function fakeSegmentsApi(initial: Segment[] = []) {
  let segments = [...initial];
  return createFakeHttp((method, path, options) => {
    const body = (options.body ?? {}) as { name?: string; conditions?: SegmentConditions };
    if (path === '/api/tags/') return { count: 1, results: [{ id: 9, name: 'vip' }] };
    if (path === '/api/channels/') return { count: 1, results: [{ id: 5, name: 'Sandbox', platform: 'sandbox' }] };
    if (path === '/api/contact-attributes/') return { count: 2, results: [cityAttribute, ordersAttribute] };
    if (path === '/api/segments/' && method === 'GET') return { count: segments.length, results: segments };
    if (path === '/api/segments/count/') {
      const conditions = body.conditions!;
      if (conditions.attributes.some((a) => a.key === 'orders' && a.value === '')) throw new HttpError(400, { 'conditions.attributes.0.value': ['Enter a value.'] });
      return { count: countOf(conditions) };
    }
    if (path === '/api/segments/' && method === 'POST') {
      const made = { id: 10 + segments.length, name: body.name!, conditions: body.conditions!, created_at: '', updated_at: '' };
      segments = [...segments, made];
      return made;
    }
    const count = /^\/api\/segments\/(\d+)\/count\/$/.exec(path);
    if (count) return { count: countOf(segments.find((s) => s.id === Number(count[1]))!.conditions) };
    throw new Error(`unexpected ${method} ${path}`);
  });
}

const options = (http: ReturnType<typeof fakeSegmentsApi>, user = manager) => ({ plugins: [contactsPlugin], features: ['contacts'], companyId: 1, signedIn: true, path: '/segments', http, user });
const none: SegmentConditions = { tags: [], channels: [], attributes: [], last_message_within_days: null, opted_in_only: false };
const lastCount = (http: ReturnType<typeof fakeSegmentsApi>) => http.calls.filter((c) => c.path === '/api/segments/count/').at(-1)?.options.body;

async function choose(combobox: string, option: string) {
  await userEvent.click(screen.getByRole('combobox', { name: combobox }));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe('/segments: the condition builder', () => {
  async function openBuilder(http: ReturnType<typeof fakeSegmentsApi>) {
    renderPluginPage(<SegmentList />, options(http));
    await userEvent.click(await screen.findByRole('button', { name: 'New segment' }));
    return screen.findByRole('dialog');
  }

  it('builds city = Lyon with its count following the edits, saves it, and lists it with its count', async () => {
    const http = fakeSegmentsApi();
    const dialog = await openBuilder(http);
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Lyon customers');
    // Nothing chosen yet: every contact.
    await waitFor(() => expect(within(dialog).getByTestId('segment-count').textContent).toBe('5 contacts'));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add an attribute condition' }));
    // The first attribute (City, a list) with its first operator and choice: city is Lyon.
    expect(within(dialog).getByRole('combobox', { name: 'Attribute 1' }).textContent).toBe('City');
    expect(within(dialog).getByRole('combobox', { name: 'Condition 1' }).textContent).toBe('is');
    expect(within(dialog).getByRole('combobox', { name: 'Value 1' }).textContent).toBe('Lyon');
    await waitFor(() => expect(within(dialog).getByTestId('segment-count').textContent).toBe('2 contacts'));
    const conditions = { ...none, attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }] };
    expect(lastCount(http)).toEqual({ conditions });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(http.calls.some((c) => c.method === 'POST' && c.path === '/api/segments/')).toBe(true));
    expect(http.calls.find((c) => c.method === 'POST' && c.path === '/api/segments/')!.options.body).toEqual({ name: 'Lyon customers', conditions });
    expect(await screen.findByText('Lyon customers')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('segment-count-10').textContent).toBe('2 contacts'));
  });

  it('offers each type its operators: a list is one of several choices, a number is more than a value', async () => {
    const http = fakeSegmentsApi();
    const dialog = await openBuilder(http);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add an attribute condition' }));
    await choose('Condition 1', 'is one of');
    await choose('Value 1', 'Paris');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(within(dialog).getByTestId('segment-count').textContent).toBe('3 contacts'));

    await userEvent.click(within(dialog).getByRole('button', { name: 'Add an attribute condition' }));
    await choose('Attribute 2', 'Orders');
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Condition 2' }));
    // The condition's own list: the attribute's list just chosen from may still be in the page, closing.
    expect(within(await screen.findByRole('listbox', { name: 'Condition 2' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['is', 'is not', 'is more than', 'is at least', 'is less than', 'is at most', 'has a value', 'has no value']);
    await userEvent.click(screen.getByRole('option', { name: 'is more than' }));
    await userEvent.type(within(dialog).getByLabelText('Value 2'), '3');
    // The count asked last, not the figure alone: the new condition's default (city is Lyon) also counts 2 contacts, and
    // on a slow machine that answer is on screen before the count of the conditions typed is asked.
    await waitFor(() => expect(lastCount(http)).toEqual({ conditions: { ...none, attributes: [{ key: 'city', op: 'in', value: ['Lyon', 'Paris'] }, { key: 'orders', op: 'gt', value: 3 }] } }));
    await waitFor(() => expect(within(dialog).getByTestId('segment-count').textContent).toBe('2 contacts'));
  });

  it('shows why conditions cannot be counted, on the value', async () => {
    const dialog = await openBuilder(fakeSegmentsApi());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add an attribute condition' }));
    await choose('Attribute 1', 'Orders');
    expect(await within(dialog).findByText('Enter a value.')).toBeTruthy();
    expect(within(dialog).getByTestId('segment-count').textContent).toBe('Fix the conditions to see the count.');
  });

  it('is read-only, saying who can change it, for a member who cannot manage chats', async () => {
    const http = fakeSegmentsApi([{ id: 3, name: 'In Lyon', conditions: { ...none, attributes: [{ key: 'city', op: 'eq', value: 'Lyon' }] }, created_at: '', updated_at: '' }]);
    renderPluginPage(<SegmentList />, options(http, viewer));
    expect(await screen.findByText('Only members allowed to manage chats can create and change segments.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New segment' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete segment In Lyon' })).toBeNull();
    await waitFor(() => expect(screen.getByTestId('segment-count-3').textContent).toBe('2 contacts'));
    await userEvent.click(screen.getByRole('button', { name: 'Open segment In Lyon' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Add an attribute condition' })).toBeNull();
  });
});
