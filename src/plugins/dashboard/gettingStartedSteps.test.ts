import { describe, expect, it } from 'vitest';
import { availableSteps, gettingStartedSteps } from './gettingStartedSteps';

describe('availableSteps', () => {
  it('keeps steps whose feature is enabled and whose area is viewable', () => {
    const enabled = new Set(['channels', 'chats', 'members', 'triggers']);
    const steps = availableSteps(gettingStartedSteps, (f) => enabled.has(f), (area) => area !== 'members', () => true);
    expect(steps.map((s) => s.id)).toEqual(['channels', 'chats', 'broadcast']);
  });
  it('drops steps whose page no loaded plugin serves, even with their feature on', () => {
    const served = new Set(['/channels', '/team']);
    const steps = availableSteps(gettingStartedSteps, () => true, () => true, (path) => served.has(path));
    expect(steps.map((s) => s.id)).toEqual(['channels', 'team']);
  });
});
