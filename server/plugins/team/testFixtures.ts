/** Shared set-up of the team tests: a company with an admin, a manager and an agent, signed in. */
import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { RoleId } from '../../../contract/permissions';
import { memberships } from '../../core/db/schema';
import type { TestApp } from '../../testing/testApp';

export interface Person {
  id: number;
  email: string;
  access: string;
}

export interface TeamFixture {
  company: number;
  admin: Person;
  manager: Person;
  agent: Person;
  /** A signed-in user in the company with the given role. */
  add(role: RoleId, email: string, names?: { firstName?: string; lastName?: string }): Promise<Person>;
  /** Signs everyone added so far in again (access tokens expire when a test moves the clock on). */
  signInAgain(): Promise<void>;
  /** The membership id of a user in this company. */
  membershipId(userId: number): Promise<number>;
  /** app.inject as `who`, with this company in the Company header (unless given another). */
  call(
    who: Person,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    companyId?: number,
  ): Promise<LightMyRequestResponse>;
}

export async function teamFixture(t: TestApp, name: string, domain: string): Promise<TeamFixture> {
  const company = await t.seed.company(name);
  const people: Person[] = [];

  async function add(role: RoleId, email: string, names: { firstName?: string; lastName?: string } = {}): Promise<Person> {
    const id = await t.seed.user({ email, firstName: names.firstName ?? role[0].toUpperCase() + role.slice(1), lastName: names.lastName ?? name });
    await t.seed.member(company, id, role);
    const person = { id, email, access: (await t.login(email)).access };
    people.push(person);
    return person;
  }

  const admin = await add('admin', `admin@${domain}`);
  const manager = await add('manager', `manager@${domain}`);
  const agent = await add('agent', `agent@${domain}`);

  return {
    company,
    admin,
    manager,
    agent,
    add,
    async signInAgain() {
      for (const person of people) person.access = (await t.login(person.email)).access;
    },
    async membershipId(userId) {
      const [row] = await t.db
        .select({ id: memberships.id })
        .from(memberships)
        .where(and(eq(memberships.companyId, company), eq(memberships.userId, userId)));
      if (!row) throw new Error(`user ${userId} is not a member of ${name}`);
      return row.id;
    },
    call(who, method, url, payload, companyId = company) {
      return t.app.inject({ method, url, headers: t.headers(who.access, companyId), ...(payload !== undefined ? { payload: payload as object } : {}) });
    },
  };
}

export const PERMISSION_DENIED = { detail: 'You do not have permission to perform this action.', code: 'permission_denied' };
export const COMPANY_FORBIDDEN = { detail: 'You do not have access to this company.', code: 'company_forbidden' };
export const NOT_FOUND = { detail: 'Not found.', code: 'not_found' };
