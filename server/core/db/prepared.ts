/**
 * Statements built once per database: drizzle builds their SQL text once instead of on every call (building
 * was the largest part of the server's own CPU per request after the database calls, bench/data, issue #26),
 * and on PostgreSQL they are named prepared statements, parsed once per connection.
 *
 * A query with optional parts is prepared once per shape, the shape in its name (`chat_older_messages:notes:id`):
 * a name is one SQL text for the life of the process, and node-postgres refuses a name reused for another text.
 */
import type { SQL } from 'drizzle-orm';
import type { Database } from './client';
import { rowsOf } from './rows';
import { withCompiledRowMapper, type SelectedField } from './rowMapper';

const statements = new WeakMap<Database, Map<string, unknown>>();

export interface PreparedOptions {
  /**
   * PostgreSQL plans the statement on every call, for the values given (an unnamed statement; its SQL is still built
   * once). A named statement is planned for any values after its fifth call (a generic plan), and the generic plan of
   * the inbox's room list, whose LIMIT, OFFSET and filters are placeholders, read every room of the company: 3 s a
   * call instead of 7 ms (bench/data, issue #26). For statements whose best plan depends on their values.
   */
  planEachCall?: boolean;
}

/** The statement `name` of this database, built by `build(db, name)` on first use (`build` calls drizzle's `.prepare(name)`). */
export function prepared<T>(db: Database, name: string, build: (db: Database, name: string) => T, options: PreparedOptions = {}): T {
  let byName = statements.get(db);
  if (!byName) {
    byName = new Map();
    statements.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (statement === undefined) {
    // drizzle's node-postgres session sends a statement without a name as an unnamed one (parsed and planned per call).
    // A select's rows are mapped by a mapper made once for the statement (rowMapper.ts), not worked out per cell.
    statement = withCompiledRowMapper(build(db, options.planEachCall ? (undefined as unknown as string) : name));
    byName.set(name, statement);
  }
  return statement;
}

/** A shape's part of a statement's name: the names of the optional parts present, in a fixed order. */
export function shapeOf(parts: Record<string, boolean>): string {
  return Object.entries(parts)
    .filter(([, present]) => present)
    .map(([part]) => `:${part}`)
    .join('');
}

/** A raw statement prepared by preparedSql: its rows for the placeholders' values. */
export interface PreparedRows<T> {
  execute(values: Record<string, unknown>): Promise<T[]>;
}

/**
 * A raw statement (drizzle's `sql` template, its values as `sql.placeholder(name)`) prepared like a query builder's:
 * its text is built once. For aggregates the builder cannot say (the stats' CTEs), whose dozen nested fragments
 * drizzle otherwise walked on every request (bench/data, issue #26).
 */
export function preparedSql<T = Record<string, unknown>>(db: Database, name: string, build: () => SQL, options: PreparedOptions = {}): PreparedRows<T> {
  return prepared(
    db,
    name,
    (db, statementName) => {
      // execute() only builds its PgRaw here (nothing runs until it is awaited); getQuery() is the SQL text and its parameters.
      const query = db.execute(build()).getQuery();
      const statement = db._.session.prepareQuery(query, undefined, statementName, false);
      return {
        async execute(values: Record<string, unknown>): Promise<T[]> {
          return rowsOf<T>(await statement.execute(values));
        },
      };
    },
    options,
  );
}

/** Where a selected field's value is in the driver's row: the field's key in the select (`db.select({ key: … })`). */
export type FieldIndex = (key: string) => number;

/**
 * A prepared select whose rows go from the driver's arrays straight to the answer's objects, in one pass: for the
 * hottest lists, where building drizzle's row objects (decoding each timestamp into a Date) and then the answer's
 * (formatting it back into text) was a tenth of the server's own CPU a request (bench/data, issue #26).
 *
 * `mapper` is called once, with where each field of the select is, and gives the function that maps one row. The
 * values are the driver's: integers and text as they are, timestamps as PostgreSQL's text (timestamps.ts).
 */
export function preparedMapped<R>(
  db: Database,
  name: string,
  build: (db: Database, name: string) => unknown,
  mapper: (at: FieldIndex) => (row: unknown[]) => R,
  options: PreparedOptions = {},
): PreparedRows<R> {
  return prepared(
    db,
    name,
    (db, statementName) => {
      const statement = build(db, statementName) as { fields?: SelectedField[]; customResultMapper?: (rows: unknown[][]) => unknown; execute(values: Record<string, unknown>): Promise<unknown> };
      if (!Array.isArray(statement.fields)) throw new Error(`${name}: preparedMapped needs a select's prepared statement`);
      const keys = statement.fields.map((field) => field.path.join('.'));
      const mapRow = mapper((key) => {
        const index = keys.indexOf(key);
        if (index < 0) throw new Error(`${name}: no field ${key} in the select (${keys.join(', ')})`);
        return index;
      });
      // drizzle's execute hands the driver's rows to a custom mapper instead of its own (and withCompiledRowMapper's).
      statement.customResultMapper = (rows) => rows.map(mapRow);
      return { execute: (values) => statement.execute(values) as Promise<R[]> };
    },
    options,
  );
}
