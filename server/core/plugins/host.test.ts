import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { createServices } from '../services';
import { coreServices } from './coreServices';
import { defineServerPlugin, offerExtensionPoint } from './defineServerPlugin';
import { planPluginOrder, startServerPlugins, type CoreValues } from './host';
import { createExtensionPoint, createServiceRef } from './refs';

const noCore = (): CoreValues => ({ services: new Map(), extensionPoints: new Map() });

interface Greeter {
  greet(name: string): string;
}
const greeterRef = createServiceRef<Greeter>({ id: 'test.greeter' });
const greetingsPoint = createExtensionPoint<{ add(word: string): void }>({ id: 'test.greetings' });

const greeterPlugin = defineServerPlugin({
  id: 'greeter',
  deps: { http: coreServices.http },
  provides: { greeter: greeterRef },
  extensionPoints: [offerExtensionPoint(greetingsPoint, () => {
    const words: string[] = [];
    return { add: (word: string) => words.push(word), words };
  })],
  init: ({ http }) => {
    http.get('/greet', async () => ({ ok: true }));
    return { greeter: { greet: (name: string) => `Hello ${name}` } };
  },
});

const politePlugin = defineServerPlugin({
  id: 'polite',
  deps: { greeter: greeterRef, greetings: greetingsPoint },
  init: ({ greeter, greetings }) => {
    greetings.add(greeter.greet('you'));
  },
});

describe('server plugin host', () => {
  it('starts a plugin after the plugins whose services or extension points it uses, otherwise in the configured order', () => {
    const other = defineServerPlugin({ id: 'other', deps: {}, init: () => {} });
    expect(planPluginOrder([politePlugin, other, greeterPlugin], noCore()).map((p) => p.id)).toEqual(['other', 'greeter', 'polite']);
  });

  it('provides the services a plugin returns through the app container, and extension points to the plugins that name them', async () => {
    const app = Fastify();
    const services = createServices();
    await startServerPlugins(app, services, [politePlugin, greeterPlugin], noCore());
    expect(services.get(greeterRef).greet('Ada')).toBe('Hello Ada');
    expect((await app.inject({ method: 'GET', url: '/greet' })).json()).toEqual({ ok: true });
    await app.close();
  });

  it('refuses a dependency no plugin provides, a cycle, duplicate ids and a service provided twice', () => {
    expect(() => planPluginOrder([politePlugin], noCore())).toThrow(/needs "test.greeter".*no loaded plugin provides/);
    const aRef = createServiceRef<number>({ id: 'test.a' });
    const bRef = createServiceRef<number>({ id: 'test.b' });
    const a = defineServerPlugin({ id: 'a', deps: { b: bRef }, provides: { a: aRef }, init: () => ({ a: 1 }) });
    const b = defineServerPlugin({ id: 'b', deps: { a: aRef }, provides: { b: bRef }, init: () => ({ b: 2 }) });
    expect(() => planPluginOrder([a, b], noCore())).toThrow(/cycle: a → b; b → a/);
    expect(() => planPluginOrder([greeterPlugin, greeterPlugin], noCore())).toThrow(/registered twice/);
    const twin = defineServerPlugin({ id: 'twin', deps: {}, provides: { greeter: greeterRef }, init: () => ({ greeter: { greet: () => '' } }) });
    expect(() => planPluginOrder([greeterPlugin, twin], noCore())).toThrow(/provided by both "greeter" and "twin"/);
  });

  it('fails when init does not return a service it declares', async () => {
    const liar = defineServerPlugin({ id: 'liar', deps: {}, provides: { greeter: greeterRef }, init: () => ({}) as never });
    const app = Fastify();
    await expect(startServerPlugins(app, createServices(), [liar], noCore())).rejects.toThrow(/declares it provides "test.greeter"/);
    await app.close();
  });

  it('resolves an optional dependency to undefined when no plugin provides it', async () => {
    let seen: unknown = 'unset';
    const optional = defineServerPlugin({ id: 'optional', deps: {}, optionalDeps: { greeter: greeterRef }, init: ({ greeter }) => void (seen = greeter) });
    const app = Fastify();
    await startServerPlugins(app, createServices(), [optional], noCore());
    expect(seen).toBeUndefined();
    await app.close();
  });
});
