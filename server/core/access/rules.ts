/**
 * Declarative access rules of routes. Every route names one in `config: { access: access.… }`; the
 * rule both ENFORCES (the core onRoute hook, ./routeTable.ts, puts its hooks first in the route's
 * onRequest) and is RECORDED in the app's route table, which the generated tenant-isolation test
 * (server/testing/tenantIsolation.test.ts) reads. So the declaration cannot lie: what a route
 * declares is exactly what runs before its handler.
 *
 *   access.public('why')            anyone; the reason is mandatory (health, sign-in, client config…)
 *   access.signedWebhook('why')     anyone, but the handler checks a provider signature (401/403 without)
 *   access.signedUrl('why')         anyone holding a secret in the URL (presigned upload, simulator key)
 *   access.user()                   a signed-in user, no company (own profile, create a company)
 *   access.company()                a signed-in member of the company named by the `Company` header
 *   access.company(area, 'view')    … whose role has view (or 'manage') access to the area
 *   access.botKey(resolve)          the bot service, with a company's bot key (?access_key=<key> or Authorization: Bot <key>)
 *
 * A route may still add its own onRequest hooks (e.g. "the header names the path's company"): they
 * run after the rule's and can only narrow it.
 */
import type { FastifyRequest } from 'fastify';
import type { PermissionArea } from '../../../contract/permissions';
import { requireUser } from '../auth/requireUser';
import { unauthorized } from '../errors';
import type { CompanyRow } from '../fastifyTypes';
import { requirePermission } from '../tenancy/requireCompany';
import { requireUserInCompany } from './companyRequest';

export type AccessLevel = 'view' | 'manage';

export interface RequiredPermission {
  area: PermissionArea;
  access: AccessLevel;
}

/** Finds the company a bot key belongs to (null: unknown or revoked key). */
export type BotKeyResolver = (key: string, request: FastifyRequest) => Promise<CompanyRow | null>;

type Hook = (request: FastifyRequest) => Promise<void>;

interface RuleBase {
  /** The onRequest hooks that enforce the rule, in order. */
  readonly hooks: readonly Hook[];
}

export type AccessRule =
  | (RuleBase & { readonly kind: 'public'; readonly reason: string })
  | (RuleBase & { readonly kind: 'signedWebhook'; readonly reason: string })
  | (RuleBase & { readonly kind: 'signedUrl'; readonly reason: string })
  | (RuleBase & { readonly kind: 'user' })
  | (RuleBase & { readonly kind: 'company'; readonly permission: RequiredPermission | null })
  | (RuleBase & { readonly kind: 'botKey' });

export type AccessKind = AccessRule['kind'];

export const ACCESS_KINDS: readonly AccessKind[] = ['public', 'signedWebhook', 'signedUrl', 'user', 'company', 'botKey'];

/** Kinds whose routes need a login (bearer token), the ones the isolation test calls as each user. */
export function needsLogin(rule: AccessRule): rule is Extract<AccessRule, { kind: 'user' | 'company' }> {
  return rule.kind === 'user' || rule.kind === 'company';
}

const RULE = Symbol('accessRule');

/** True for values built by `access.*` (a hand-written object with a `kind` is not a rule). */
export function isAccessRule(value: unknown): value is AccessRule {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[RULE] === true;
}

function rule<R extends Omit<AccessRule, 'hooks'>>(fields: R, hooks: Hook[]): R & RuleBase {
  const built = { ...fields, hooks: Object.freeze(hooks) };
  Object.defineProperty(built, RULE, { value: true });
  return Object.freeze(built);
}

function reasonRequired(kind: string, reason: string): string {
  if (typeof reason !== 'string' || reason.trim().length < 5) throw new Error(`access.${kind}() needs a reason saying why the route is open`);
  return reason.trim();
}

export const BOT_KEY_SCHEME = /^Bot\s+(\S+)\s*$/i;

/** Authorization: Bot <key> → the key's company on request.company (no user, no membership). */
function requireBotKey(resolve: BotKeyResolver): Hook {
  return async function checkBotKey(request) {
    // Spec §7: the bot service takes the key as the `access_key` query parameter; `Authorization: Bot <key>` too.
    const fromQuery = (request.query as Record<string, unknown> | undefined)?.access_key;
    const key = BOT_KEY_SCHEME.exec(request.headers.authorization ?? '')?.[1] ?? (typeof fromQuery === 'string' && fromQuery ? fromQuery : null);
    if (!key) throw unauthorized();
    const company = await resolve(key, request);
    if (!company) throw unauthorized('Invalid bot key.', 'invalid_bot_key');
    request.company = company;
  };
}

export const access = {
  public: (reason: string) => rule({ kind: 'public', reason: reasonRequired('public', reason) } as const, []),
  signedWebhook: (reason: string) => rule({ kind: 'signedWebhook', reason: reasonRequired('signedWebhook', reason) } as const, []),
  signedUrl: (reason: string) => rule({ kind: 'signedUrl', reason: reasonRequired('signedUrl', reason) } as const, []),
  user: () => rule({ kind: 'user' } as const, [requireUser]),
  company: (area?: PermissionArea, level?: AccessLevel) => {
    if ((area === undefined) !== (level === undefined)) throw new Error('access.company(area, level): give both or neither');
    const permission = area && level ? { area, access: level } : null;
    // requireUser then requireCompany, in one database round trip (companyRequest.ts), then the permission's
    // check in the same hook: one hook a request (each costs a promise and a turn of the microtask queue).
    if (!permission) return rule({ kind: 'company', permission } as const, [requireUserInCompany]);
    const checkPermission = requirePermission(permission.area, permission.access);
    return rule({ kind: 'company', permission } as const, [
      async function requireMemberWithPermission(request) {
        await requireUserInCompany(request);
        checkPermission(request);
      },
    ]);
  },
  botKey: (resolve: BotKeyResolver) => rule({ kind: 'botKey' } as const, [requireBotKey(resolve)]),
};

/** The rule as the route table and error messages show it, e.g. `company(members, manage)`. */
export function describeRule(rule: AccessRule): string {
  switch (rule.kind) {
    case 'company':
      return rule.permission ? `company(${rule.permission.area}, ${rule.permission.access})` : 'company()';
    case 'public':
    case 'signedWebhook':
    case 'signedUrl':
      return `${rule.kind}(${JSON.stringify(rule.reason)})`;
    default:
      return `${rule.kind}()`;
  }
}
