/** The typed container: a resolution is kept until its token is registered again (services.ts). */
import { describe, expect, it, vi } from 'vitest';
import { createServices } from './services';
import { createServiceRef } from './plugins/refs';
import type { Clock } from './clock';

describe('Services', () => {
  it('builds a factory once and answers the same instance after', () => {
    const services = createServices();
    const build = vi.fn(() => ({ now: () => 1 }) as unknown as Clock);
    services.factory('Clock', build);
    const first = services.get('Clock');
    expect(services.get('Clock')).toBe(first);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('answers the new value once a service is registered again (a test override), not the kept one', () => {
    const services = createServices();
    const real = { now: () => 1 } as unknown as Clock;
    const fake = { now: () => 2 } as unknown as Clock;
    services.value('Clock', real);
    expect(services.get('Clock')).toBe(real);
    services.value('Clock', fake);
    expect(services.get('Clock')).toBe(fake);
    services.factory('Clock', () => real);
    expect(services.get('Clock')).toBe(real);
  });

  it("keeps a falsy value, and a plugin's service once provided", () => {
    const services = createServices();
    services.value('Outbox', null);
    expect(services.get('Outbox')).toBeNull();
    const ref = createServiceRef<{ greet(): string }>({ id: 'test.greeter' });
    expect(() => services.get(ref)).toThrow(/No plugin provides the service "test.greeter"/);
    const greeter = { greet: () => 'hi' };
    services.provide(ref, greeter);
    expect(services.get(ref)).toBe(greeter);
    expect(() => services.provide(ref, greeter)).toThrow(/provided twice/);
  });
});
