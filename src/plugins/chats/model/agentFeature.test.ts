import { describe, expect, it } from 'vitest';
import { agentTagOptions, canViewTags, hasAgentFeature, splitTags } from './agentFeature';

describe('agent feature (spec §6)', () => {
  const list = ['Acme'];
  it('only admin and manager see tags in agent-feature companies; everyone elsewhere', () => {
    expect(hasAgentFeature('acme', list)).toBe(true);
    expect(canViewTags('Acme', 'agent', list)).toBe(false);
    expect(canViewTags('Acme', 'admin', list)).toBe(true);
    expect(canViewTags('Acme', 'manager', list)).toBe(true);
    expect(canViewTags('Other', 'agent', list)).toBe(true);
    expect(canViewTags(null, 'agent', list)).toBe(true);
    // A membership the server flags has the feature whatever its name.
    expect(canViewTags({ name: 'Other', agent_feature: true }, 'agent', list)).toBe(false);
    expect(canViewTags({ name: 'Other' }, 'agent', list)).toBe(true);
  });
  it('splits agent (e-mail-like) tags from ordinary ones and limits agent tags to members', () => {
    const tags = [{ id: 1, name: 'vip' }, { id: 2, name: 'ann@acme.io' }, { id: 3, name: 'bob@old.io' }, { id: 4, name: 'x@y.z' }];
    expect(splitTags(tags).agent.map((t) => t.id)).toEqual([2, 3]);
    expect(splitTags(tags).ordinary.map((t) => t.id)).toEqual([1, 4]);
    expect(agentTagOptions(tags, ['ANN@acme.io'], true).map((t) => t.id)).toEqual([2]);
    expect(agentTagOptions(tags, ['ann@acme.io'], false).map((t) => t.id)).toEqual([2, 3]);
  });
});
