import { describe, expect, it } from 'vitest';
import { DEMO, DemoSeeders, type DemoAppContext, type DemoCompaniesContext } from './demoData';

const appContext = { demo: DEMO } as DemoAppContext;

describe('demo seeders', () => {
  it('runs a phase’s seeders by ascending order, and only that phase’s', async () => {
    const ran: string[] = [];
    const seeders = new DemoSeeders();
    const record = (id: string) => async () => void ran.push(id);
    seeders.add({ id: 'late', order: 300, phase: 'afterListen', seed: record('late') });
    seeders.add({ id: 'second', order: 200, phase: 'beforeListen', seed: record('second') });
    seeders.add({ id: 'first', order: 100, phase: 'beforeListen', seed: record('first') });
    seeders.add({ id: 'inbox', order: 100, phase: 'withCompanies', seed: record('inbox') });

    await seeders.seedApp('beforeListen', appContext, { error: () => {} });
    expect(ran).toEqual(['first', 'second']);
    await seeders.seedWithCompanies({ demo: DEMO } as DemoCompaniesContext);
    expect(ran).toEqual(['first', 'second', 'inbox']);
  });

  it('logs the failure of a seeder that is not required and goes on; a required one stops the start', async () => {
    const logged: string[] = [];
    const log = { error: (_obj: unknown, msg?: string) => void logged.push(msg ?? '') };
    const seeders = new DemoSeeders();
    let after = false;
    seeders.add({ id: 'billing', order: 1, phase: 'afterListen', seed: async () => Promise.reject(new Error('fake Stripe down')) });
    seeders.add({ id: 'after', order: 2, phase: 'afterListen', seed: async () => void (after = true) });
    await seeders.seedApp('afterListen', appContext, log);
    expect(logged).toEqual(['demo billing']);
    expect(after).toBe(true);

    seeders.add({ id: 'whatsapp', order: 1, phase: 'beforeListen', required: true, seed: async () => Promise.reject(new Error('fake Meta down')) });
    await expect(seeders.seedApp('beforeListen', appContext, log)).rejects.toThrow('fake Meta down');
    await expect(seeders.seedWithCompanies({ demo: DEMO } as DemoCompaniesContext)).resolves.toBeUndefined();
  });

  it('refuses a seeder id added twice', () => {
    const seeders = new DemoSeeders();
    seeders.add({ id: 'bots', order: 1, phase: 'beforeListen', seed: async () => {} });
    expect(() => seeders.add({ id: 'bots', order: 2, phase: 'beforeListen', seed: async () => {} })).toThrow(/added twice/);
  });
});
