import { describe, expect, it } from 'vitest';
import { createFeatureFlags, featureSatisfied } from './featureFlags';

describe('feature flags', () => {
  it("returns the caller's default while unset (false unless given)", () => {
    const flags = createFeatureFlags();
    expect(flags.isEnabled('chats')).toBe(false);
    expect(flags.isEnabled('chats', true)).toBe(true);
  });

  it('is set once; a second set throws', () => {
    const flags = createFeatureFlags();
    flags.setEnabled(['chats']);
    expect(flags.isEnabled('chats')).toBe(true);
    expect(flags.isEnabled('stats', true)).toBe(false);
    expect(() => flags.setEnabled(['stats'])).toThrow(/once/);
  });

  it('evaluates requirements with default and not', () => {
    const flags = createFeatureFlags();
    expect(featureSatisfied(flags, { key: 'x', default: true })).toBe(true);
    flags.setEnabled(['x']);
    expect(featureSatisfied(flags, { key: 'x' })).toBe(true);
    expect(featureSatisfied(flags, { key: 'x', not: true })).toBe(false);
    expect(featureSatisfied(flags, { key: 'y', not: true })).toBe(true);
    expect(featureSatisfied(flags, undefined)).toBe(true);
  });
});
