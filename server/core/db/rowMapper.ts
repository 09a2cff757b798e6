/**
 * A prepared select's rows mapped to objects by a mapper worked out once per statement. drizzle's `mapResultRow`
 * works the same things out again for every cell of every row: which kind of field it is (three `is()` class checks),
 * an iterator over the field's path with an array for each step. On a list of 20-50 rows that was the largest
 * allocation of a request after the driver's own (`GET tags`: 15 KB of 97 KB, bench/data README, issue #26).
 *
 * The objects are the ones drizzle builds: the same keys in the same order, the same decoders, and the same nulls for
 * a left join's missing side, decided as drizzle decides it (by the first of its columns). rowMapper.test.ts checks it
 * against drizzle's own function on real statements and on generated rows.
 */
import { Column, SQL, Subquery, getTableName, is, type DriverValueDecoder } from 'drizzle-orm';
import { PgPreparedQuery } from 'drizzle-orm/pg-core';

/** drizzle's selected field: where its value goes in the object, and the column or expression it comes from. */
export interface SelectedField {
  path: string[];
  field: unknown;
}

type RowObject = Record<string, unknown>;

interface CompiledColumn {
  index: number;
  /** The path's steps before the last (the nested objects), and the last (the key of the value). */
  parents: string[];
  key: string;
  decoder: DriverValueDecoder<unknown, unknown>;
  /** A left join's side: its table's name when this column is of a joined object (path of two), else null. */
  joinTable: string | null;
  objectName: string;
}

/** An SQL expression's decoder (its `mapWith`, else values as they come): in drizzle's types an internal property. */
type Decoded = { decoder: DriverValueDecoder<unknown, unknown> };

/** The decoder of a field, as mapResultRow chooses it: a column decodes its own values, an expression by its decoder. */
function decoderOf(field: unknown): DriverValueDecoder<unknown, unknown> {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as Decoded).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: Decoded } })._.sql.decoder;
  return (field as { sql: Decoded }).sql.decoder;
}

/** The row mapper of a select's fields (drizzle's `orderSelectedFields`) and its joins' nullability. */
export function compileRowMapper(fields: SelectedField[], joinsNotNullableMap: Record<string, boolean> | undefined): (row: unknown[]) => RowObject {
  const columns: CompiledColumn[] = fields.map(({ path, field }, index) => ({
    index,
    parents: path.slice(0, -1),
    key: path[path.length - 1],
    decoder: decoderOf(field),
    joinTable: joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null,
    objectName: path[0],
  }));
  const joins = columns.some((c) => c.joinTable !== null);

  return (row) => {
    const result: RowObject = {};
    // Per joined object: the table whose first column was null (the object may be nulled), or false.
    const nullify: Record<string, string | false> | null = joins ? {} : null;
    for (const column of columns) {
      let node = result;
      for (const step of column.parents) {
        if (!(step in node)) node[step] = {};
        node = node[step] as RowObject;
      }
      const raw = row[column.index];
      const value = raw === null ? null : column.decoder.mapFromDriverValue(raw);
      node[column.key] = value;
      if (column.joinTable !== null) {
        const seen = nullify![column.objectName];
        if (seen === undefined) nullify![column.objectName] = value === null ? column.joinTable : false;
        else if (typeof seen === 'string' && seen !== column.joinTable) nullify![column.objectName] = false;
      }
    }
    if (nullify) {
      for (const objectName in nullify) {
        const table = nullify[objectName];
        if (typeof table === 'string' && !joinsNotNullableMap![table]) result[objectName] = null;
      }
    }
    return result;
  };
}

/**
 * Gives a prepared select (drizzle's `.prepare()` of a query builder), or each prepared select of an object of them
 * (statements built together, `prepared(db, 'auth_statements', …)`), the compiled mapper, through the
 * `customResultMapper` their `execute` already honours. Anything else (a relational query, which maps its own rows; a
 * raw statement without fields) is left as it is.
 */
export function withCompiledRowMapper<T>(statement: T): T {
  if (is(statement, PgPreparedQuery)) compile(statement);
  else if (statement !== null && typeof statement === 'object' && Object.getPrototypeOf(statement) === Object.prototype) {
    for (const value of Object.values(statement)) if (is(value, PgPreparedQuery)) compile(value);
  }
  return statement;
}

function compile(statement: object): void {
  const query = statement as { fields?: SelectedField[]; customResultMapper?: unknown; joinsNotNullableMap?: Record<string, boolean> };
  if (!Array.isArray(query.fields) || query.customResultMapper !== undefined) return;
  const map = compileRowMapper(query.fields, query.joinsNotNullableMap);
  query.customResultMapper = (rows: unknown[][]) => rows.map(map);
}
