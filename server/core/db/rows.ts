/** The rows of a raw statement's answer (`db.execute`, a prepared raw statement): node-postgres and PGlite both answer `{rows}`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
