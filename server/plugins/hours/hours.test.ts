/**
 * Business hours and the away message (issue #22): the hours in time zones across daylight-saving
 * changes (Intl), GET/PUT /api/business-hours/ and its refusals, the away message once per room per
 * closed period (also when two runs claim it at once: the room+period key), and none when a bot answers.
 * On both databases: the claim is a conditional insert that processes race on (docs/testing.md).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { defaultBusinessHours, hoursAt, type BusinessHours, type WeekHours } from '../../../contract/businessHours';
import { messages } from '../../core/db/schema';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import { botChannels, bots, botSteps } from '../bots/testing';
import { chatService } from '../chats';
import { ensureSandboxChannel } from '../sandbox';
import { PERMISSION_DENIED, teamFixture, type TeamFixture } from '../team/testing';
import { AWAY_SENDER } from './service';
import { hoursService } from './index';
import { awayMessagesSent } from './schema';

const nineToFive = (): WeekHours => defaultBusinessHours().days;

describe('business hours: open or closed at an instant', () => {
  const paris = { time_zone: 'Europe/Paris', days: nineToFive() };

  it('reads the wall clock of the time zone, the same hours on both sides of a daylight-saving change', () => {
    // Paris moves to summer time on Sunday 28 March 2027: 09:30 is 08:30 UTC before, 07:30 UTC after.
    expect(hoursAt(paris, new Date('2027-03-26T08:30:00Z'))).toEqual({ open: true, period: null });
    expect(hoursAt(paris, new Date('2027-03-26T07:30:00Z'))).toEqual({ open: false, period: '2027-03-25T17:00' });
    expect(hoursAt(paris, new Date('2027-03-29T07:30:00Z'))).toEqual({ open: true, period: null });
    expect(hoursAt(paris, new Date('2027-03-29T06:30:00Z'))).toEqual({ open: false, period: '2027-03-26T17:00' });
    // 16:59 and 17:00 local in summer time (UTC+2): the close is exclusive.
    expect(hoursAt(paris, new Date('2027-03-29T14:59:00Z')).open).toBe(true);
    expect(hoursAt(paris, new Date('2027-03-29T15:00:00Z'))).toEqual({ open: false, period: '2027-03-29T17:00' });
    // New York changes on another day (14 March 2027): Monday 15 March 09:00 EDT is 13:00 UTC.
    const ny = { time_zone: 'America/New_York', days: nineToFive() };
    expect(hoursAt(ny, new Date('2027-03-15T13:00:00Z')).open).toBe(true);
    expect(hoursAt(ny, new Date('2027-03-15T12:59:00Z'))).toEqual({ open: false, period: '2027-03-12T17:00' });
    // A zone a half hour off UTC: Kolkata 09:00 is 03:30 UTC.
    expect(hoursAt({ time_zone: 'Asia/Kolkata', days: nineToFive() }, new Date('2027-03-15T03:30:00Z')).open).toBe(true);
  });

  it('several intervals a day: the lunch break is a closed period of its own; a week without hours is one period', () => {
    const days = { ...nineToFive(), wed: [{ open: '09:00', close: '12:30' }, { open: '13:30', close: '24:00' }] };
    expect(hoursAt({ time_zone: 'UTC', days }, new Date('2027-03-17T12:45:00Z'))).toEqual({ open: false, period: '2027-03-17T12:30' });
    expect(hoursAt({ time_zone: 'UTC', days }, new Date('2027-03-17T23:59:00Z')).open).toBe(true);
    // Thursday 08:00: the last close was Wednesday's midnight.
    expect(hoursAt({ time_zone: 'UTC', days }, new Date('2027-03-18T08:00:00Z'))).toEqual({ open: false, period: '2027-03-17T24:00' });
    const never = { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
    expect(hoursAt({ time_zone: 'UTC', days: never }, new Date('2027-03-18T08:00:00Z'))).toEqual({ open: false, period: 'closed' });
  });
});

describeEachDatabase('business hours and the away message', (database) => {
  let t: TestApp;
  let f: TeamFixture;
  let channel: Awaited<ReturnType<typeof ensureSandboxChannel>>;
  let seq = 0;

  /** Moves the app's clock forward to an instant (tests only go forward), and signs everyone in again. */
  async function at(iso: string): Promise<void> {
    const delta = new Date(iso).getTime() - t.clock.now().getTime();
    expect(delta).toBeGreaterThanOrEqual(0);
    t.clock.advance(delta);
    await f.signInAgain();
  }
  async function write(customer: string, text = 'hello') {
    const chats = chatService(t.app);
    const { room } = await chats.receiveInbound(channel, { externalUserId: customer, name: customer, type: 'text', text, clientId: `m-${++seq}` });
    await chats.settled();
    return room;
  }
  async function awayMessages(roomId: number) {
    const rows = await t.db.select().from(messages).where(eq(messages.roomId, roomId)).orderBy(asc(messages.id));
    return rows.filter((m) => m.origin === 'bot' && m.senderName === AWAY_SENDER);
  }
  const save = (body: Partial<BusinessHours>, who = f.admin) => f.call(who, 'PUT', '/api/business-hours/', { ...defaultBusinessHours(), ...body });

  beforeAll(async () => {
    t = await createTestApp({ database });
    f = await teamFixture(t, 'Acme', 'acme.test');
    channel = await ensureSandboxChannel(t.db, f.company);
    // Monday 15 March 2027, 06:00 UTC (after the app's real-time start).
    await at('2027-03-15T06:00:00Z');
  });
  afterAll(() => t.close());

  it('answers the defaults (off, Monday to Friday 9 to 5) to every member until saved', async () => {
    for (const who of [f.admin, f.manager, f.agent]) {
      const res = await f.call(who, 'GET', '/api/business-hours/');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ ...defaultBusinessHours(), open_now: false });
    }
  });

  it('only whoever manages the company settings saves them; bad input is a 400 on the field', async () => {
    expect((await save({ enabled: true }, f.agent)).json()).toEqual(PERMISSION_DENIED);
    expect((await save({ enabled: true }, f.manager)).statusCode).toBe(403);
    const cases: [Record<string, unknown>, Record<string, string[]>][] = [
      [{ time_zone: 'Mars/Olympus' }, { time_zone: ['Unknown time zone.'] }],
      [{ days: { ...nineToFive(), mon: [{ open: '9am', close: '17:00' }] } }, { 'days.mon.0.open': ['Enter a time as HH:MM.'] }],
      [{ days: { ...nineToFive(), tue: [{ open: '17:00', close: '09:00' }] } }, { 'days.tue.0.close': ['The closing time must be after the opening time.'] }],
      [{ days: { ...nineToFive(), wed: [{ open: '09:00', close: '13:00' }, { open: '12:00', close: '18:00' }] } }, { 'days.wed': ['The hours of a day must not overlap.'] }],
      [{ enabled: true, away_message: '   ' }, { away_message: ['This field may not be blank.'] }],
    ];
    for (const [body, errors] of cases) {
      const res = await save(body as Partial<BusinessHours>);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual(errors);
    }
    expect((await f.call(f.admin, 'GET', '/api/business-hours/')).json().enabled).toBe(false);
  });

  it('saves the hours, and says whether the company is open now in its time zone', async () => {
    const days = { ...nineToFive(), sat: [{ open: '10:00', close: '12:00' }, { open: '14:00', close: '16:00' }] };
    const res = await save({ enabled: true, time_zone: 'Europe/Paris', days, away_message: 'We are closed, back soon.' });
    expect(res.statusCode, res.body).toBe(200);
    // Monday 06:00 UTC is 07:00 in Paris (winter time): closed.
    expect(res.json()).toEqual({ enabled: true, time_zone: 'Europe/Paris', days, away_message: 'We are closed, back soon.', open_now: false });
    expect((await f.call(f.agent, 'GET', '/api/business-hours/')).json()).toMatchObject({ days, open_now: false });
  });

  it('outside the hours a customer gets the away message once per closed period, none while open', async () => {
    const room = await write('ann');
    await write('ann', 'anyone there?');
    // The last closing time was Saturday's 16:00 in Paris.
    expect((await awayMessages(room.id)).map((m) => [m.text, m.clientId])).toEqual([['We are closed, back soon.', 'away:2027-03-13T16:00']]);
    // 10:00 in Paris: open.
    await at('2027-03-15T09:00:00Z');
    await write('ann', 'good morning');
    expect(await awayMessages(room.id)).toHaveLength(1);
    // 18:30 in Paris: a new closed period.
    await at('2027-03-15T17:30:00Z');
    await write('ann', 'one more thing');
    await write('ann', 'and another');
    expect((await awayMessages(room.id)).map((m) => m.clientId)).toEqual(['away:2027-03-13T16:00', 'away:2027-03-15T17:00']);
  });

  it('two runs of the same message at once (two processes) send one away message', async () => {
    const chats = chatService(t.app);
    chats.runsInboundPipeline = false;
    const { room, message } = await chats.receiveInbound(channel, { externalUserId: 'bo', name: 'Bo', type: 'text', text: 'hi', clientId: `m-${++seq}` });
    chats.runsInboundPipeline = true;
    const outcomes = await Promise.all([hoursService(t.app).answer(room, message), hoursService(t.app).answer(room, message)]);
    await chats.settled();
    expect(outcomes.sort()).toEqual(['handled', 'passed']);
    expect(await awayMessages(room.id)).toHaveLength(1);
    expect(await t.db.select().from(awayMessagesSent).where(eq(awayMessagesSent.roomId, room.id))).toHaveLength(1);
  });

  it('no away message when a bot answers the message; none either when the hours are off', async () => {
    const [bot] = await t.db.insert(bots).values({ companyId: f.company, name: 'Helper', startStepId: 'start' }).returning({ id: bots.id });
    await t.db.insert(botSteps).values({ botId: bot.id, id: 'start', messages: [{ text: 'Hi, I am the bot.', media_url: null, type: 'text' }], nextStepId: null, actions: [], inputVariable: null, position: 0 });
    await t.db.insert(botChannels).values({ botId: bot.id, channelId: channel.id, companyId: f.company });
    const room = await write('cy');
    const rows = await t.db.select().from(messages).where(eq(messages.roomId, room.id)).orderBy(asc(messages.id));
    expect(rows.filter((m) => m.origin === 'bot').map((m) => m.text)).toEqual(['Hi, I am the bot.']);
    expect(await awayMessages(room.id)).toHaveLength(0);
    await t.db.delete(botChannels).where(eq(botChannels.botId, bot.id));

    expect((await save({ enabled: false, away_message: 'We are closed, back soon.' })).statusCode).toBe(200);
    const quiet = await write('dee');
    expect(await awayMessages(quiet.id)).toHaveLength(0);
  });
});
