/** This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts). */
import type { IsolationArea } from '../../testing/isolation/areas';

export const billingIsolation: IsolationArea = {
  name: 'billing',
  seed: async () => ({}),
  snapshot: async () => [],
  routes: {},
};
