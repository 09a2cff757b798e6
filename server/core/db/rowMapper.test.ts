/** The compiled row mapper (rowMapper.ts) builds the objects drizzle's own mapResultRow builds, on each database. */
import * as drizzle from 'drizzle-orm';
import { and, asc, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, describeEachDatabase, type TestApp } from '../../testing/testApp';
import type { Database } from './client';
import { compileRowMapper, withCompiledRowMapper, type SelectedField } from './rowMapper';
import { companies, companyRolePermissions, memberships } from './schema';

/** Every kind of field a select names: columns, nested objects, a left join's side, sql with a decoder, an alias. */
function membersWithOverrides(db: Database, name: string | undefined) {
  return db
    .select({
      id: memberships.id,
      role: memberships.role,
      company: { id: companies.id, name: companies.name, agentFeature: companies.agentFeature, createdAt: companies.createdAt },
      override: { role: companyRolePermissions.role, permissions: companyRolePermissions.permissions },
      total: sql<number>`count(*) over ()`.mapWith(Number),
      shout: sql<string>`upper(${companies.name})`.as('shout'),
      joinedAt: memberships.createdAt,
    })
    .from(memberships)
    .innerJoin(companies, eq(companies.id, memberships.companyId))
    .leftJoin(companyRolePermissions, and(eq(companyRolePermissions.companyId, memberships.companyId), eq(companyRolePermissions.role, memberships.role)))
    .orderBy(asc(memberships.id))
    .prepare(name as string);
}

/** drizzle's own row mapper, which its typings leave out (internal): what ours must build the same as. */
const { mapResultRow } = drizzle as unknown as { mapResultRow: (fields: SelectedField[], row: unknown[], joins?: Record<string, boolean>) => unknown };

type Prepared = ReturnType<typeof membersWithOverrides> & { fields: SelectedField[]; joinsNotNullableMap: Record<string, boolean>; customResultMapper?: unknown };

describeEachDatabase('compiled row mapper', (database) => {
  let t: TestApp;
  let db: Database;
  beforeAll(async () => {
    t = await createTestApp({ database });
    db = t.app.services.get('Database');
    const companyId = await t.seed.company('Mapper Co');
    const [ada, bob] = [await t.seed.user({ email: 'ada@mapper.test' }), await t.seed.user({ email: 'bob@mapper.test' })];
    await t.seed.member(companyId, ada, 'admin');
    await t.seed.member(companyId, bob, 'agent');
    // Only the agents of this company have an override: the admin's row has the left join's side missing.
    await db.insert(companyRolePermissions).values({ companyId, role: 'agent', permissions: { can_view_chats: true } });
  });
  afterAll(async () => t.close());

  it("maps a statement's rows as drizzle does: the same objects, keys in the same order, the missing join side null", async () => {
    const plain = await membersWithOverrides(db, undefined).execute();
    const compiledStatement = withCompiledRowMapper(membersWithOverrides(db, 'row_mapper_test_members')) as Prepared;
    expect(compiledStatement.customResultMapper).toBeTypeOf('function');
    const compiled = await compiledStatement.execute();
    expect(compiled).toEqual(plain);
    expect(JSON.stringify(compiled)).toBe(JSON.stringify(plain));
    expect(compiled.map((r) => r.override)).toEqual([null, { role: 'agent', permissions: { can_view_chats: true } }]);
    expect(compiled[0].company.createdAt).toBeInstanceOf(Date);
    expect(compiled[0].total).toBe(2);
  });

  it('maps any mix of null cells as drizzle does (a join side is nulled by its first column, as drizzle decides)', async () => {
    const statement = membersWithOverrides(db, undefined) as Prepared;
    // The driver's rows as they come (arrays), to null cells of at random.
    statement.customResultMapper = (rows: unknown[][]) => rows;
    const raw = (await statement.execute()) as unknown as unknown[][];
    const map = compileRowMapper(statement.fields, statement.joinsNotNullableMap);
    fc.assert(
      fc.property(fc.constantFrom(...raw), fc.array(fc.boolean(), { minLength: raw[0].length, maxLength: raw[0].length }), (row, nulls) => {
        const cells = row.map((cell, i) => (nulls[i] ? null : cell));
        const ours = map(cells);
        const theirs = mapResultRow(statement.fields, cells, statement.joinsNotNullableMap);
        expect(ours).toEqual(theirs);
        expect(JSON.stringify(ours)).toBe(JSON.stringify(theirs));
      }),
    );
  });

  it('gives each prepared select of an object of statements built together its mapper', () => {
    const together = { members: membersWithOverrides(db, undefined) as Prepared, count: { execute: async () => [] } };
    expect(withCompiledRowMapper(together)).toBe(together);
    expect(together.members.customResultMapper).toBeTypeOf('function');
  });

  it('leaves statements that are not a prepared select as they are', () => {
    const raw = { execute: async () => [] };
    expect(withCompiledRowMapper(raw)).toBe(raw);
    const relational = membersWithOverrides(db, undefined) as Prepared;
    const own = (rows: unknown[][]) => rows;
    relational.customResultMapper = own;
    expect((withCompiledRowMapper(relational) as Prepared).customResultMapper).toBe(own);
  });
});
