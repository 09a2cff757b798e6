import { describe, expect, it } from 'vitest';
import { availableSteps, gettingStartedSteps, showGettingStarted, stepProgress } from './gettingStartedSteps';

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

describe('stepProgress', () => {
  const none = { channel_connected: false, conversation_answered: false, teammate_invited: false, template_created: false, broadcast_sent: false, bot_built: false };
  it('marks each step done from its own figure of the company', () => {
    const progress = stepProgress(gettingStartedSteps, { ...none, channel_connected: true, bot_built: true });
    expect(progress.filter((p) => p.done).map((p) => p.step.id)).toEqual(['channels', 'flows']);
    expect(progress.map((p) => p.step.id)).toEqual(gettingStartedSteps.map((s) => s.id));
    expect(showGettingStarted(progress)).toBe(true);
  });
  it('counts every step as still to do without the figures', () => {
    expect(stepProgress(gettingStartedSteps, undefined).every((p) => !p.done)).toBe(true);
    expect(stepProgress(gettingStartedSteps, null).every((p) => !p.done)).toBe(true);
  });
  it('hides the card once every available step is done, or when there is no step', () => {
    const all = { channel_connected: true, conversation_answered: true, teammate_invited: true, template_created: true, broadcast_sent: true, bot_built: true };
    expect(showGettingStarted(stepProgress(gettingStartedSteps, all))).toBe(false);
    // Only the steps this user has count: an agent with chats only is done once the team answered.
    const chatsOnly = gettingStartedSteps.filter((s) => s.id === 'chats');
    expect(showGettingStarted(stepProgress(chatsOnly, { ...none, conversation_answered: true }))).toBe(false);
    expect(showGettingStarted(stepProgress(chatsOnly, none))).toBe(true);
    expect(showGettingStarted([])).toBe(false);
  });
});
