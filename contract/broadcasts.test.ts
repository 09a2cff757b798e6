/** The broadcasts contract: request schemas (defaults, refusals by field), time zones, progress, Meta's error words. */
import { describe, expect, it } from 'vitest';
import {
  AudiencePreviewRequest,
  BroadcastCreate,
  BroadcastListQuery,
  RECIPIENT_STATE_RANK,
  RecipientListQuery,
  broadcastProgress,
  describeMetaError,
  isTimeZone,
  zonedTimeToUtc,
} from './broadcasts';

const valid = {
  name: ' Spring sale ',
  page_id: 3,
  template: { name: 'welcome', language: 'en_US' },
  audience: { type: 'csv', csv: 'phone\n+14155550123\n' },
};

const issues = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('BroadcastCreate', () => {
  it('fills the defaults: send now, no variables, an empty contacts filter', () => {
    const parsed = BroadcastCreate.parse(valid);
    expect(parsed).toMatchObject({ name: 'Spring sale', schedule: { mode: 'now' }, variables: { body: {} } });
    const contacts = BroadcastCreate.parse({ ...valid, audience: { type: 'contacts' } });
    expect(contacts.audience).toEqual({ type: 'contacts', filter: { term: '', tags: [], channels: [] } });
  });

  it('names the field of each refusal', () => {
    expect(issues(BroadcastCreate.safeParse({ ...valid, name: '  ' }))).toEqual({ name: 'This field may not be blank.' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, audience: { type: 'csv' } }))).toEqual({ 'audience.csv': 'Upload a CSV file.' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, audience: { type: 'email' } }))).toEqual({ 'audience.type': "Audience type must be 'contacts', 'csv' or 'segment'." });
    // A segment: `{segment_id}` alone is read as one; a variable may take a contact attribute by its key.
    expect(BroadcastCreate.parse({ ...valid, audience: { segment_id: 4 } }).audience).toEqual({ type: 'segment', segment_id: 4 });
    expect(issues(BroadcastCreate.safeParse({ ...valid, audience: { type: 'segment', segment_id: 0 } }))).toEqual({ 'audience.segment_id': 'Choose a segment.' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, variables: { body: { '1': { source: 'attribute', value: 'City!' } } } }))).toEqual({ 'variables.body.1.value': 'Choose one of your contact attributes.' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, variables: { body: { '1': { source: 'field', value: 'email' } } } }))).toEqual({
      'variables.body.1.value': 'A contact field is one of: name, first_name, phone.',
    });
    expect(issues(BroadcastCreate.safeParse({ ...valid, variables: { body: { '1': { source: 'column', value: '' } } } }))).toEqual({ 'variables.body.1.value': 'This field may not be blank.' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, schedule: { mode: 'later', at: 'tomorrow', time_zone: 'Europe/Paris' } }))).toEqual({ 'schedule.at': 'Enter a date and time (YYYY-MM-DDTHH:mm).' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, schedule: { mode: 'later', at: '2099-01-01T10:00', time_zone: 'Nowhere/City' } }))).toEqual({ 'schedule.time_zone': 'Unknown time zone.' });
    expect(issues(BroadcastCreate.safeParse({ ...valid, header_media_url: 'not a url' }))).toEqual({ header_media_url: 'Enter a valid URL.' });
    expect(BroadcastCreate.safeParse({ ...valid, page_id: 'x' }).success).toBe(false);
  });

  it('the preview takes the same audience, template and variables optional', () => {
    expect(AudiencePreviewRequest.safeParse({ page_id: 1, audience: { type: 'contacts', filter: { term: 'ana' } } }).success).toBe(true);
    expect(AudiencePreviewRequest.safeParse({ page_id: 1 }).success).toBe(false);
  });

  it('list queries take known statuses only', () => {
    expect(BroadcastListQuery.parse({ status: 'waiting', page: '2' })).toMatchObject({ status: 'waiting', page: 2, page_size: 25 });
    expect(BroadcastListQuery.safeParse({ status: 'done' }).success).toBe(false);
    expect(RecipientListQuery.parse({ status: 'unknown' }).status).toBe('unknown');
    expect(RecipientListQuery.safeParse({ status: 'lost' }).success).toBe(false);
  });
});

describe('time zones', () => {
  it('turns a wall-clock time of an IANA zone into UTC, summer and winter', () => {
    expect(zonedTimeToUtc('2026-07-01T09:30', 'Europe/Paris')?.toISOString()).toBe('2026-07-01T07:30:00.000Z');
    expect(zonedTimeToUtc('2026-01-15T09:30', 'Europe/Paris')?.toISOString()).toBe('2026-01-15T08:30:00.000Z');
    expect(zonedTimeToUtc('2026-11-24T23:00:15', 'Asia/Kolkata')?.toISOString()).toBe('2026-11-24T17:30:15.000Z');
    expect(zonedTimeToUtc('2026-03-01T00:00', 'UTC')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });

  it('moves a time in the spring-forward gap like the clocks, and refuses dates that do not exist', () => {
    // 2026-03-29 02:30 does not exist in Paris (02:00 → 03:00).
    const gap = zonedTimeToUtc('2026-03-29T02:30', 'Europe/Paris');
    expect(gap?.toISOString()).toMatch(/^2026-03-29T0[01]:30:00.000Z$/);
    expect(zonedTimeToUtc('2026-02-30T10:00', 'Europe/Paris')).toBeNull();
    expect(zonedTimeToUtc('2026-01-01T24:00', 'Europe/Paris')).toBeNull();
    expect(isTimeZone('America/Sao_Paulo')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
  });
});

describe('progress, funnel order and error words', () => {
  it('progress is the share of recipients that have a result', () => {
    expect(broadcastProgress(200, { queued: 50 })).toBe(0.75);
    expect(broadcastProgress(0, { queued: 0 })).toBe(1);
  });

  it('a recipient only moves forward along the funnel', () => {
    const order = ['queued', 'sending', 'sent', 'delivered', 'read', 'replied'] as const;
    for (let i = 1; i < order.length; i += 1) expect(RECIPIENT_STATE_RANK[order[i]]).toBeGreaterThan(RECIPIENT_STATE_RANK[order[i - 1]]);
    expect(RECIPIENT_STATE_RANK.failed).toBeGreaterThan(RECIPIENT_STATE_RANK.sending);
    expect(RECIPIENT_STATE_RANK.failed).toBeLessThan(RECIPIENT_STATE_RANK.sent);
  });

  it("puts Meta's error codes in words a person understands, falling back to Meta's title", () => {
    expect(describeMetaError(131050)).toBe('The customer has stopped receiving marketing messages from this business.');
    expect(describeMetaError(131049)).toMatch(/marketing/);
    expect(describeMetaError(999999, 'Odd thing')).toBe('Odd thing');
    expect(describeMetaError(999999)).toBe('Meta error 999999.');
    expect(describeMetaError(null)).toBeNull();
  });
});
