/**
 * The API and the real engine together, against the fake Meta through the real Graph adapter:
 * a broadcast created with POST /api/broadcasts from a CSV (with a bad row and a duplicate) is sent
 * once to each good number with the values mapped from the CSV, completes, and its detail, recipients
 * and report agree with the fake's count of messages; a delivery webhook moves the counters.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Paged } from '../../../contract/api';
import type { BroadcastDetail, BroadcastRecipient, BroadcastReport } from '../../../contract/broadcasts';
import { whatsappTemplates } from '../../core/db/schema';
import type { StartedFakeMeta } from '../../providers/meta/fake/fakeMeta';
import { describeEachDatabase } from '../../testing/testApp';
import { companyFixture, eventually, insertChannel, type ChannelsTestApp, type CompanyFixture } from '../channels/testing';
import { startEngineTestApp } from './engine/testing';

describeEachDatabase('broadcasts: API and engine against the fake Meta', (database) => {
  let fake: StartedFakeMeta;
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let channelId = 0;
  let phoneNumberId = '';

  beforeAll(async () => {
    ({ fake, t } = await startEngineTestApp(database));
    acme = await companyFixture(t, 'Acme', 'acme.test');
    const signup = fake.state.createWhatsAppBusiness({ businessName: 'Acme', phoneNumber: '+1 555 0100' });
    fake.state.data.phoneNumbers[signup.phoneNumberId].registered = true;
    phoneNumberId = signup.phoneNumberId;
    const channel = await insertChannel(t, acme.company, {
      platform: 'whatsapp',
      externalId: signup.phoneNumberId,
      token: fake.state.issueBusinessToken(signup.wabaId),
      wabaId: signup.wabaId,
      settings: { messaging_limit_tier: 'TIER_UNLIMITED' },
    });
    channelId = channel.id;
    // Approved on Meta's side too (the fake refuses unknown templates with 132001).
    const components = [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} is ready.' }];
    fake.state.waba(signup.wabaId)!.templates.push({ id: '990001', name: 'order_ready', language: 'en_US', status: 'APPROVED', category: 'UTILITY', components: components as never, quality_score: 'GREEN' });
    await t.db.insert(whatsappTemplates).values({
      companyId: acme.company,
      channelId,
      wabaId: signup.wabaId,
      name: 'order_ready',
      language: 'en_US',
      category: 'UTILITY',
      components,
      status: 'APPROVED',
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('sends each good CSV row once with its mapped values, completes, and the report agrees', async () => {
    const csv = 'phone,name,order\n+14155550121,Ana,A-1\n+14155550122,Bo,B-2\nnope,Cy,C-3\n+1 415 555 0121,Ana twice,A-9\n+33612345621,Dee,D-4\n';
    const res = await acme.call(acme.admin, 'POST', '/api/broadcasts', {
      name: 'Orders',
      page_id: channelId,
      template: { name: 'order_ready', language: 'en_US' },
      variables: { body: { '1': { source: 'column', value: 'name' }, '2': { source: 'column', value: 'order' } } },
      audience: { type: 'csv', csv, file_name: 'orders.csv' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const { id } = res.json() as BroadcastDetail;

    const done = await eventually(async () => {
      const detail = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${id}/`)).json() as BroadcastDetail;
      expect(detail.status, JSON.stringify(detail)).toBe('completed');
      return detail;
    }, 15_000);
    expect(done.stats).toMatchObject({ sent: 3, failed: 0, queued: 0, excluded: 2 });
    expect(done.progress).toBe(1);

    const sent = fake.state.data.messages.filter((m) => m.direction === 'outbound' && m.channel_id === phoneNumberId);
    expect(sent.map((m) => m.customer_id).sort()).toEqual(['14155550121', '14155550122', '33612345621']);
    for (const [customer, count] of fake.state.sendCounts) if (customer.startsWith(`${phoneNumberId}:`)) expect(count).toBe(1);
    const ana = sent.find((m) => m.customer_id === '14155550121')!;
    expect(JSON.stringify(ana.payload)).toContain('"Ana"');
    expect(JSON.stringify(ana.payload)).toContain('"A-1"');

    const recipients = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${id}/recipients/?status=sent`)).json() as Paged<BroadcastRecipient>;
    expect(recipients.count).toBe(3);
    expect(recipients.results.every((r) => r.wa_message_id && r.sent_at && r.attempts === 1)).toBe(true);

    // Meta's delivery status arrives as a signed webhook and moves the counters.
    const res2 = await fetch(`${fake.url}/control/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message_id: recipients.results[0].wa_message_id, status: 'delivered' }),
    });
    expect(res2.status).toBe(200);
    await eventually(async () => {
      const detail = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${id}/`)).json() as BroadcastDetail;
      expect(detail.stats.delivered).toBe(1);
    }, 10_000);

    const report = (await acme.call(acme.agent, 'GET', `/api/broadcasts/${id}/report/`)).json() as BroadcastReport;
    expect(report.data).toHaveLength(3);
    expect(report.data.filter((row) => row[2] === 'delivered')).toHaveLength(1);
  });
});
