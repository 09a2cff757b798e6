/**
 * Access rules of socket topics. A feature registers a prefix with its rule,
 * `hub.registerChannel('room', topicAccess.companyResource({...}), handler)`, and the hub checks every
 * join against it before the handler runs (a refused join answers `{reason: 'forbidden'}` or
 * `{reason: 'not found'}`); the rule is recorded in the hub's topic table, which the generated
 * isolation test reads.
 *
 *   topicAccess.companyResource({ permission, fixed, belongsTo })
 *       `prefix:{id}` where id names a resource that must belong to the socket's company
 *       (`belongsTo(id, identity)`), or one of the `fixed` company-wide names (e.g. 'lobby').
 *   topicAccess.member('why', permission?)
 *       any `prefix:*` for any socket of the company: the suffix names nothing a tenant owns.
 */
import { canManage, canView } from '../../../contract/permissions';
import type { SocketIdentity } from '../realtime/types';
import type { RequiredPermission } from './rules';

export type TopicAccessRule =
  | {
      readonly kind: 'companyResource';
      readonly permission: RequiredPermission | null;
      /** Company-wide subtopics without an id (`page:lobby`). */
      readonly fixed: readonly string[];
      /** True when the resource `id` belongs to the socket's company (and this socket may see it). */
      readonly belongsTo: (id: number, identity: SocketIdentity) => Promise<boolean>;
    }
  | { readonly kind: 'member'; readonly reason: string; readonly permission: RequiredPermission | null };

const TOPIC_RULE = Symbol('topicAccessRule');

export function isTopicAccessRule(value: unknown): value is TopicAccessRule {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOPIC_RULE] === true;
}

function mark<R extends TopicAccessRule>(rule: R): R {
  Object.defineProperty(rule, TOPIC_RULE, { value: true });
  return Object.freeze(rule);
}

export const topicAccess = {
  companyResource: (input: { permission?: RequiredPermission; fixed?: string[]; belongsTo: (id: number, identity: SocketIdentity) => Promise<boolean> }) =>
    mark({ kind: 'companyResource', permission: input.permission ?? null, fixed: Object.freeze([...(input.fixed ?? [])]), belongsTo: input.belongsTo }),
  member: (reason: string, permission?: RequiredPermission) => {
    if (typeof reason !== 'string' || reason.trim().length < 5) throw new Error('topicAccess.member() needs a reason');
    return mark({ kind: 'member', reason: reason.trim(), permission: permission ?? null });
  },
};

export type TopicVerdict = { ok: true } | { ok: false; reason: 'forbidden' | 'not found' };

/** The numeric id after `prefix:` (up to 9 digits), or null. */
export function topicResourceId(topic: string): number | null {
  const match = /^[^:]+:(\d{1,9})$/.exec(topic);
  return match ? Number(match[1]) : null;
}

function permitted(permission: RequiredPermission | null, identity: SocketIdentity): boolean {
  if (!permission) return true;
  return permission.access === 'view' ? canView(identity.permissions, permission.area) : canManage(identity.permissions, permission.area);
}

/** The hub's join check. */
export async function checkTopicAccess(rule: TopicAccessRule, topic: string, identity: SocketIdentity): Promise<TopicVerdict> {
  if (!permitted(rule.permission, identity)) return { ok: false, reason: 'forbidden' };
  if (rule.kind === 'member') return { ok: true };
  const suffix = topic.slice(topic.indexOf(':') + 1);
  if (rule.fixed.includes(suffix)) return { ok: true };
  const id = topicResourceId(topic);
  if (id === null) return { ok: false, reason: 'not found' };
  return (await rule.belongsTo(id, identity)) ? { ok: true } : { ok: false, reason: 'not found' };
}

export function describeTopicRule(rule: TopicAccessRule): string {
  const permission = rule.permission ? `${rule.permission.area}, ${rule.permission.access}` : 'any role';
  return rule.kind === 'member' ? `member(${JSON.stringify(rule.reason)}; ${permission})` : `companyResource(${permission}; fixed: ${rule.fixed.join(',') || '-'})`;
}
