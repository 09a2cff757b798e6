import { describe, expect, it } from 'vitest';
import type { MenuEntry } from '../plugins/types';
import { claimingEntry } from './ConsoleMenu';

const flows: MenuEntry = { to: '/flows', label: 'flows.menu' };
const bots: MenuEntry = { to: '/bots', label: 'bots.menu', activeFor: ['/flows/generic-flow/:botId'] };

describe('claimingEntry', () => {
  it("gives a bot's canvas (under /flows) to Bots", () => {
    expect(claimingEntry([flows, bots], '/flows/generic-flow/12')).toBe(bots);
    expect(claimingEntry([flows, bots], '/flows/generic-flow/12/')).toBe(bots);
  });

  it('leaves every other path to react-admin (the entry whose `to` prefixes it)', () => {
    expect(claimingEntry([flows, bots], '/flows')).toBeUndefined();
    expect(claimingEntry([flows, bots], '/flows/edit/Welcome')).toBeUndefined();
    expect(claimingEntry([flows, bots], '/bots/3')).toBeUndefined();
  });
});
