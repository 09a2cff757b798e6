/** Companies: creation (the creator becomes admin), the account view and updates. */
import { count, eq } from 'drizzle-orm';
import type { CompanyAccount, CompanyMembership, Paged, Role } from '../../../contract/api';
import { ROLE_IDS, ROLE_NAMES } from '../../../contract/permissions';
import type { CompanyCreateBody, CompanyUpdateBody } from '../../../contract/validation';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { companies, memberships } from '../../core/db/schema';
import { fieldError } from '../../core/errors';
import { companyForbidden } from '../../core/tenancy/requireCompany';
import { findMembership, toCompanyMembership } from '../../core/tenancy/memberships';

export const INVALID_LOGO = 'Enter a valid image URL.';

/**
 * A logo is shown as an <img> source: accept http(s) URLs, same-origin paths and image data
 * URLs only, so no other scheme (javascript:, file:) is ever stored.
 */
export function isAcceptableLogo(logo: string): boolean {
  if (logo.startsWith('/') && !logo.startsWith('//')) return true;
  if (/^data:image\/(png|jpe?g|gif|webp|svg\+xml|avif);base64,[A-Za-z0-9+/=\s]+$/i.test(logo)) return true;
  try {
    const url = new URL(logo);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function normalizedLogo(logo: string | null | undefined): string | null | undefined {
  if (logo === undefined || logo === null) return logo;
  const trimmed = logo.trim();
  if (trimmed === '') return null;
  if (!isAcceptableLogo(trimmed)) throw fieldError('logo', INVALID_LOGO);
  return trimmed;
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Runs inside the creation transaction of every new company (e.g. the sandbox plugin adds its channel). */
export type CompanyCreatedHook = (tx: Transaction, companyId: number) => Promise<void>;
export interface CompanyDeps {
  db: Database;
  clock: Clock;
  /** Run in the creating transaction (companyLifecycleExtensionPoint: the sandbox channel). */
  createdHooks?: readonly CompanyCreatedHook[];
}

export class CompanyService {
  constructor(private readonly deps: CompanyDeps) {}

  async create(userId: number, body: CompanyCreateBody): Promise<CompanyMembership> {
    const logo = normalizedLogo(body.logo) ?? null;
    const now = this.deps.clock.now();
    const companyId = await this.deps.db.transaction(async (tx) => {
      const [company] = await tx.insert(companies).values({ name: body.name, logo, createdAt: now }).returning({ id: companies.id });
      await tx.insert(memberships).values({ companyId: company.id, userId, role: 'admin', createdAt: now });
      for (const hook of this.deps.createdHooks ?? []) await hook(tx, company.id);
      return company.id;
    });
    return this.membership(userId, companyId);
  }

  /** The caller's membership of the company; a non-member gets the tenancy 403. */
  async membership(userId: number, companyId: number): Promise<CompanyMembership> {
    const record = await findMembership(this.deps.db, userId, companyId);
    if (!record) throw companyForbidden();
    return toCompanyMembership(record);
  }

  async account(userId: number, companyId: number): Promise<CompanyAccount> {
    const membership = await this.membership(userId, companyId);
    const [{ members }] = await this.deps.db
      .select({ members: count() })
      .from(memberships)
      .where(eq(memberships.companyId, companyId));
    return { ...membership, members_count: members };
  }

  async update(userId: number, companyId: number, body: CompanyUpdateBody): Promise<CompanyMembership> {
    const changes: { name?: string; logo?: string | null } = {};
    if (body.name !== undefined) changes.name = body.name;
    if (body.logo !== undefined) changes.logo = normalizedLogo(body.logo) ?? null;
    if (Object.keys(changes).length > 0) {
      await this.deps.db.update(companies).set(changes).where(eq(companies.id, companyId));
    }
    return this.membership(userId, companyId);
  }

  roles(): Paged<Role> {
    const results = ROLE_IDS.map((id) => ({ id, name: ROLE_NAMES[id] }));
    return { count: results.length, next: null, previous: null, results };
  }
}
