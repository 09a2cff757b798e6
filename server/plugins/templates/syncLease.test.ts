/**
 * The background template sync of an account runs once per interval in the whole cluster (issue #21):
 * two template services (two processes) on one database and one lease store (Redis in a cluster; here
 * the in-memory store on the app's clock, which the Redis one stands in for with the same interface).
 * Opening the list on both calls Meta once; after the interval, whichever opens it first syncs, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateListQuery } from '../../../contract/templates';
import { MemoryLeases } from '../../core/jobs/leases';
import type { MetaGraph } from '../../providers/meta/types';
import { channelsTestApp, companyFixture, insertChannel, type ChannelsTestApp } from '../channels/testing';
import { templateService } from './index';
import { SYNC_INTERVAL_MS, TemplateService, type TemplateDeps } from './service';

describe('template sync across processes', () => {
  let t: ChannelsTestApp;
  let companyId = 0;
  let channelId = 0;

  beforeAll(async () => {
    t = await channelsTestApp('pglite');
    companyId = (await companyFixture(t, 'Acme', 'acme.test')).company;
    channelId = (await insertChannel(t, companyId, { platform: 'whatsapp', externalId: 'pn-sync', wabaId: 'waba-sync', token: 'wa-token' })).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('two processes opening the list call Meta once per interval for the account', async () => {
    let calls = 0;
    const graph = {
      messageTemplates: async () => {
        calls++;
        return [];
      },
    } as unknown as MetaGraph;
    const deps = (templateService(t.app) as unknown as { deps: TemplateDeps }).deps;
    const leases = new MemoryLeases(t.clock);
    const [a, b] = [0, 1].map(() => new TemplateService({ ...deps, graph: () => graph, leases }));
    const open = async (service: TemplateService) => {
      await service.list(companyId, channelId, TemplateListQuery.parse({}));
      await service.settled();
    };

    await open(a);
    expect(calls).toBe(1);
    await open(b);
    await open(a);
    expect(calls).toBe(1);

    t.clock.advance(SYNC_INTERVAL_MS + 1);
    await open(b);
    expect(calls).toBe(2);
    await open(a);
    expect(calls).toBe(2);
  });
});
