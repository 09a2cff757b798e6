import { afterAll, beforeAll, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { companies } from '../../core/db/schema';
import { createTestApp, type TestApp } from '../../testing/testApp';
import { flowsService } from '.';
import { DEMO_FLOW, DEMO_FLOW_KEYWORD, seedDemoFlow } from './demo';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

it('seeds the demo flow once, with its keyword and steps, as version 2 after the creation', async () => {
  const [company] = await t.db.insert(companies).values({ name: 'Flow Demo Co' }).returning();
  const id = await seedDemoFlow(t.db, t.clock, 'Flow Demo Co');
  expect(id).toEqual(expect.any(Number));
  expect(await seedDemoFlow(t.db, t.clock, 'Flow Demo Co')).toBeNull();
  expect(await seedDemoFlow(t.db, t.clock, 'No such company')).toBeNull();
  const [flow] = await flowsService(t.app).list(company.id);
  expect(flow).toMatchObject({ ...DEMO_FLOW, version: 2 });
  expect(flow.keywords).toEqual([DEMO_FLOW_KEYWORD]);
  expect((await t.db.select().from(companies).where(eq(companies.id, company.id))).length).toBe(1);
});
