/**
 * The offline demo without provider accounts: the fake Meta at /dev/meta and the fake Google
 * at /dev/google on the app's own port, which config.meta.graphUrl and config.google.* point at.
 * Only in demo mode and 'local' mode — never next to real providers, never by omission on a
 * server others can reach (config.demo): anyone reaching a fake can sign in as any user.
 */
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../../../core/config';
import { fakeGooglePlugin } from '../../google/fake/fakeGoogle';
import { fakeMetaPlugin } from './fakeMeta';

export const FAKE_META_PREFIX = '/dev/meta';
export const FAKE_GOOGLE_PREFIX = '/dev/google';

export async function registerLocalProviderFakes(app: FastifyInstance, config: AppConfig): Promise<void> {
  // 'local' implies demo mode (config.ts); checked here too so a hand-built config cannot mount them outside it.
  if (!config.demo.enabled) return;
  // The fakes' accounts and tokens are kept only when the database is: a test's in-memory
  // database must not meet a state file left by another run (or by a parallel test).
  const persistent = config.databaseUrl !== null || config.pgliteDir !== null;
  const statePath = (file: string) => (persistent ? path.join(config.dataDir, file) : undefined);

  if (config.meta.mode === 'local') {
    await app.register(fakeMetaPlugin, {
      prefix: FAKE_META_PREFIX,
      appId: config.meta.appId,
      appSecret: config.meta.appSecret,
      graphVersion: config.meta.graphVersion,
      statePath: statePath('fake-meta.json'),
      // Read at each delivery: the port is known only once the app listens (null before: nothing to deliver to).
      webhookUrl: () => {
        const address = app.server.address() as AddressInfo | string | null;
        return address && typeof address === 'object' ? `http://127.0.0.1:${address.port}/api/webhooks/meta/` : null;
      },
    });
  }
  if (config.google.mode === 'local') {
    await app.register(fakeGooglePlugin, { prefix: FAKE_GOOGLE_PREFIX, statePath: statePath('fake-google.json') });
  }
}
