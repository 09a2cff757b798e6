import { afterAll, beforeAll, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { SignupStatusResponse } from '../../../contract/channels';
import { channels } from '../../core/db/schema';
import { GraphApiError } from '../../providers/meta/types';
import { describeEachDatabase } from '../../testing/testApp';
import { channelsRuntime } from './index';
import { channelsTestApp, companyFixture, type ChannelsTestApp, type CompanyFixture } from './testFixtures';

describeEachDatabase('WhatsApp embedded signup (/api/wa-onboard/)', (database) => {
  let t: ChannelsTestApp;
  let acme: CompanyFixture;
  let globex: CompanyFixture;
  let n = 0;

  beforeAll(async () => {
    t = await channelsTestApp(database);
    acme = await companyFixture(t, 'Acme', 'acme.test');
    globex = await companyFixture(t, 'Globex', 'globex.test');
  });
  afterAll(() => t.close());

  /** A number Meta knows, with a fresh one-time code for it. */
  function number(verifiedName = 'Acme Support') {
    const id = `pn-${++n}`;
    const code = `code-${n}`;
    t.graph.codes.set(code, `business-token-${n}`);
    t.graph.phoneNumbers.set(id, { id, display_phone_number: `+1 555 010${n}`, verified_name: verifiedName });
    return { phone_number_id: id, waba_id: `waba-${n}`, code, token: `business-token-${n}` };
  }

  const signup = (f: CompanyFixture, body: Record<string, unknown>, who = f.admin) =>
    f.call(who, 'POST', '/api/wa-onboard/embedded_signup/', { non_json_data: { sessionInfo: 'x' }, company: f.company, email: who.email, ...body });
  const status = async (f: CompanyFixture, externalId: string) => {
    const res = await f.call(f.agent, 'GET', `/api/wa-onboard/signup_status/?external_id=${externalId}`);
    expect(res.statusCode).toBe(200);
    return res.json() as SignupStatusResponse;
  };
  const rowOf = async (externalId: string, companyId = acme.company) =>
    (await t.db.select().from(channels).where(and(eq(channels.externalId, externalId), eq(channels.companyId, companyId))))[0];

  it('answers 202 at once, then runs the four steps in the background: completed, active, connected', async () => {
    const num = number();
    const res = await signup(acme, num);
    expect(res.statusCode).toBe(202);
    const started = res.json() as SignupStatusResponse;
    expect(started).toMatchObject({ status: 'in_progress', external_id: num.phone_number_id, error: null, already_connected: false, channel_id: expect.any(Number) });
    expect(started.steps.map((s) => [s.name, s.status])).toEqual([
      ['exchange_code', 'pending'],
      ['phone_number', 'pending'],
      ['register_phone', 'pending'],
      ['subscribe_webhooks', 'pending'],
    ]);
    await t.settled();

    const done = await status(acme, num.phone_number_id);
    expect(done).toMatchObject({ status: 'completed', error: null, channel_id: started.channel_id });
    expect(done.steps.every((s) => s.status === 'done' && s.at)).toBe(true);
    const row = await rowOf(num.phone_number_id);
    expect(row).toMatchObject({ status: 'active', name: 'Acme Support', displayPhoneNumber: `+1 555 010${n}`, wabaId: num.waba_id, signupStatus: 'completed' });
    expect(row.settings).toMatchObject({ non_json_data: { sessionInfo: 'x' }, signup_email: acme.admin.email });
    // Secrets are sealed: no token, PIN or code in clear anywhere in the row.
    expect(row.accessTokenEnc).toMatch(/^v1:/);
    expect(channelsRuntime(t.app).box.open(row.accessTokenEnc!)).toBe(num.token);
    const pin = t.graph.registered.get(num.phone_number_id)!;
    expect(pin).toMatch(/^\d{6}$/);
    const serialized = JSON.stringify(row);
    expect(serialized).not.toContain(num.token);
    expect(serialized).not.toContain(num.code);
    expect(serialized).not.toContain(`"${pin}"`);
    expect(row.settings).not.toHaveProperty('code_enc');
    expect(t.graph.subscribedWabas.has(num.waba_id)).toBe(true);

    const listed = (await acme.call(acme.agent, 'GET', '/api/channels/')).json();
    expect(listed.results.find((c: { id: number }) => c.id === started.channel_id)).toMatchObject({ platform: 'whatsapp', signup_status: 'completed', connected: true });
    expect(JSON.stringify(listed)).not.toContain(num.token);

    // The same number again: already connected here, 200, nothing re-run.
    const calls = t.graph.calls.length;
    const again = await signup(acme, { ...num, code: 'another-code' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'completed', already_connected: true, channel_id: started.channel_id });
    expect(t.graph.calls.length).toBe(calls);
  });

  it('409 when the number is active in another company; 403 for a company other than the header’s, for agents; status of another company 404', async () => {
    const num = number();
    await signup(acme, num);
    await t.settled();
    const res = await signup(globex, { ...num, code: 'fresh' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ status: 'failed', already_connected: true, detail: 'This account is already connected to another company.' });
    expect(JSON.stringify(res.json())).not.toContain(String((await rowOf(num.phone_number_id)).id) + ',');
    expect((await globex.call(globex.agent, 'GET', `/api/wa-onboard/signup_status/?external_id=${num.phone_number_id}`)).statusCode).toBe(404);
    expect((await globex.call(globex.admin, 'POST', '/api/wa-onboard/retry/', { external_id: num.phone_number_id })).statusCode).toBe(404);

    const other = number();
    const mismatch = await acme.call(acme.admin, 'POST', '/api/wa-onboard/embedded_signup/', { ...other, company: globex.company, email: acme.admin.email });
    expect(mismatch.statusCode).toBe(403);
    expect((await signup(acme, other, acme.agent)).statusCode).toBe(403);
    expect((await signup(acme, { phone_number_id: other.phone_number_id })).json()).toMatchObject({ waba_id: ['This field is required.'] });
    expect(await rowOf(other.phone_number_id)).toBeUndefined();
  });

  it('register_phone failing → partial_failure (active, connected, error names the step); retry finishes it', async () => {
    const num = number();
    t.graph.failNext('registerPhone', new GraphApiError('Two-step verification PIN mismatch.', 400, 133005));
    await signup(acme, num);
    await t.settled();
    const partial = await status(acme, num.phone_number_id);
    expect(partial).toMatchObject({ status: 'partial_failure', error: expect.stringMatching(/^register_phone failed: Two-step verification PIN mismatch/) });
    expect(partial.steps.map((s) => s.status)).toEqual(['done', 'done', 'failed', 'pending']);
    expect(partial.steps[2].error).toBe('Two-step verification PIN mismatch.');
    expect(await rowOf(num.phone_number_id)).toMatchObject({ status: 'active' });
    const listed = (await acme.call(acme.agent, 'GET', '/api/channels/')).json().results.find((c: { external_id: string }) => c.external_id === num.phone_number_id);
    expect(listed.connected).toBe(true);

    const pinBefore = t.graph.callsOf('registerPhone').at(-1)!.args[2];
    expect((await acme.call(acme.agent, 'POST', '/api/wa-onboard/retry/', { external_id: num.phone_number_id })).statusCode).toBe(403);
    const exchanges = t.graph.callsOf('exchangeCode').length;
    const retried = await acme.call(acme.admin, 'POST', '/api/wa-onboard/retry/', { external_id: num.phone_number_id });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'completed', error: null });
    // Done steps are not run again; the same PIN is used.
    expect(t.graph.callsOf('exchangeCode').length).toBe(exchanges);
    expect(t.graph.callsOf('registerPhone').at(-1)!.args[2]).toBe(pinBefore);
    // Nothing left to retry: the status as it is.
    expect((await acme.call(acme.admin, 'POST', '/api/wa-onboard/retry/', { external_id: num.phone_number_id })).json()).toMatchObject({ status: 'completed' });
  });

  it('subscribe_webhooks failing → partial_failure naming that step', async () => {
    const num = number();
    t.graph.failNext('subscribeWaba', new GraphApiError('Permission denied.', 403, 200));
    await signup(acme, num);
    await t.settled();
    expect(await status(acme, num.phone_number_id)).toMatchObject({ status: 'partial_failure', error: 'subscribe_webhooks failed: Permission denied.' });
  });

  it('exchange_code failing → failed, not usable, number freed; retry asks to start again; a new signup works', async () => {
    const num = number();
    t.graph.failNext('exchangeCode', new GraphApiError('This authorization code has expired.', 400, 100));
    await signup(acme, num);
    await t.settled();
    const failed = await status(acme, num.phone_number_id);
    expect(failed).toMatchObject({ status: 'failed', error: 'This authorization code has expired.' });
    expect(failed.steps.map((s) => s.status)).toEqual(['failed', 'pending', 'pending', 'pending']);
    const row = await rowOf(num.phone_number_id);
    expect(row).toMatchObject({ status: 'disconnected', accessTokenEnc: null });
    expect(row.settings).not.toHaveProperty('code_enc');
    const listed = (await acme.call(acme.agent, 'GET', '/api/channels/')).json().results.find((c: { id: number }) => c.id === row.id);
    expect(listed.connected).toBe(false);

    const retry = await acme.call(acme.admin, 'POST', '/api/wa-onboard/retry/', { external_id: num.phone_number_id });
    expect(retry.statusCode).toBe(400);
    expect(retry.json()).toMatchObject({ detail: 'Start the WhatsApp signup again: Facebook codes can only be used once.' });

    t.graph.codes.set('code-again', 'business-token-again');
    const again = await signup(acme, { ...num, code: 'code-again' });
    expect(again.statusCode).toBe(202);
    expect(again.json().channel_id).toBe(row.id);
    await t.settled();
    expect(await status(acme, num.phone_number_id)).toMatchObject({ status: 'completed' });
  });

  it('phone_number failing → failed; retry re-runs it with the stored token', async () => {
    const num = number();
    t.graph.failNext('phoneNumber', new GraphApiError('Temporarily unavailable.', 500, 2));
    await signup(acme, num);
    await t.settled();
    expect(await status(acme, num.phone_number_id)).toMatchObject({ status: 'failed', error: 'Temporarily unavailable.' });
    expect((await rowOf(num.phone_number_id)).status).toBe('disconnected');
    const retried = await acme.call(acme.admin, 'POST', '/api/wa-onboard/retry/', { external_id: num.phone_number_id });
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ status: 'completed' });
    expect(await rowOf(num.phone_number_id)).toMatchObject({ status: 'active', name: 'Acme Support' });
  });

  it('signup_status of an unknown number is 404; the query needs external_id', async () => {
    expect((await acme.call(acme.agent, 'GET', '/api/wa-onboard/signup_status/?external_id=nope')).statusCode).toBe(404);
    expect((await acme.call(acme.agent, 'GET', '/api/wa-onboard/signup_status/')).json()).toEqual({ external_id: ['This field is required.'] });
  });

  it('a restart in the middle of a signup resumes it and finishes', async () => {
    const num = number();
    // The first process gets stuck on register_phone (Meta never answers) when it is stopped.
    t.graph.hangNext('registerPhone');
    channelsRuntime(t.app).signup.closeGraceMs = 50;
    await signup(acme, num);
    for (let i = 0; i < 100 && t.graph.callsOf('registerPhone').filter((c) => c.args[0] === num.phone_number_id).length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const midway = await status(acme, num.phone_number_id);
    expect(midway.status).toBe('in_progress');
    expect(midway.steps.map((s) => s.status)).toEqual(['done', 'done', 'pending', 'pending']);

    await t.restart();
    await t.settled();
    const done = await status(acme, num.phone_number_id);
    expect(done.status).toBe('completed');
    // The code was exchanged once only; register_phone ran again with the PIN stored before the first attempt.
    expect(t.graph.callsOf('exchangeCode').filter((c) => c.args[0] === num.code)).toHaveLength(1);
    const registers = t.graph.callsOf('registerPhone').filter((c) => c.args[0] === num.phone_number_id);
    expect(registers).toHaveLength(2);
    expect(registers[1].args[2]).toBe(registers[0].args[2]);
    // acme's people sign in again on the new app (the sessions are in the database, they still work).
    expect((await acme.call(acme.admin, 'GET', '/api/channels/')).statusCode).toBe(200);
  });
});
