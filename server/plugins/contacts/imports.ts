/**
 * Contact import from CSV (issue #23): POST /api/contacts/import/ checks the file's header, counts its rows and
 * the mapping (contract/contactImports.ts), stores the import (`contact_imports`, state `queued`) and answers
 * 202 with its id; the rows are then read in the background by the process that took the file, and
 * GET /api/contacts/import/{id}/ answers the status from the table, from any process.
 *
 * The work never holds the event loop (the broadcasts' CSV rule, server/core/jobs/slices.ts): papaparse reads
 * the text in chunks and pauses after each one; the rules run in slices that yield with setImmediate; each
 * batch of rows is written in one transaction together with the import's counters, so the status is exactly
 * what is in the contacts table. A company runs one import at a time, in the whole cluster (a partial unique
 * index on the queued or running import): a second one is refused with 429 `import_busy` and the running
 * one's id, as the broadcasts refuse a third CSV file with 429 `csv_busy`.
 *
 * A row is found again by its phone, else by the external id of an existing contact (the lowest id when several
 * channels have it); found, it is updated (tags added, attributes set, name and e-mail replaced when the cell
 * has one, the phone set only when the contact has none); else a contact is made (named after its phone when
 * the file has no name). A phone or external id seen on an earlier row, or a contact the file already changed,
 * is a duplicate. Bad cells skip the row with the reason (contract IMPORT_SKIP_REASONS).
 *
 * An import whose process died (its heartbeat older than STALE_MS) is failed when read, so it no longer blocks
 * the company; at shutdown the running imports stop at their next slice and are failed with the same words.
 * Importing the file again is safe: rows already imported update their contacts.
 */
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import {
  CONTACT_IMPORT_LIMITS,
  CONTACT_IMPORT_MESSAGES,
  guessImportMapping,
  importColumns,
  isImportCountry,
  mappingProblems,
  readImportRow,
  skipped as skippedRow,
  type ContactImport,
  type ImportMapping,
  type ImportRowValues,
  type ImportSkippedRow,
} from '../../../contract/contactImports';
import type { ContactAttribute } from '../../../contract/contacts';
import type { Tag } from '../../../contract/chats';
import type { ApiErrorBody } from '../../../contract/errors';
import type { Database } from '../../core/db/client';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { rowsOf } from '../../core/db/rows';
import { ApiError, fieldError, forbidden, notFound, validationError } from '../../core/errors';
import { Slicer } from '../../core/jobs/slices';
import type { ContactAttributes } from './attributes';
import { contactImports, contactImportSkips, contacts, contactTags } from './schema';
import type { ContactActor, RestrictedEmail } from './visibility';

/** An import whose heartbeat is older than this is taken as stopped (its process died). */
export const STALE_MS = 60_000;
/** Papaparse's chunk: about 400 rows of a typical contacts file, written in one transaction. */
export const IMPORT_CHUNK_BYTES = 32 * 1024;

type ImportRow = typeof contactImports.$inferSelect;

export interface ContactImportsDeps {
  db: Database;
  now: () => Date;
  restrictedEmail: RestrictedEmail;
  attributes: ContactAttributes;
  ensureTag: (companyId: number, name: string) => Promise<Tag>;
  log: { error: (obj: unknown, msg: string) => void };
}

export interface ImportUpload {
  text: string;
  fileName: string;
  /** Column → target; guessed from the header when absent. */
  mapping: ImportMapping | null;
  country: string | null;
}

interface Header {
  columns: string[];
  delimiter: string;
  total: number;
}

/** A row read from the file: its number (header = 1) and its cells by column. */
interface FileRow {
  row: number;
  cells: Record<string, string>;
  extra: boolean;
}

/** The file's records `chunkBytes` at a time, pausing after each chunk until the loop's next turn; `onRecords` may be async. */
function readChunks(text: string, delimiter: string, chunkBytes: number, onRecords: (records: string[][]) => Promise<boolean | void>): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopped = false;
    Papa.parse<string[]>(text, {
      header: false,
      skipEmptyLines: false,
      delimiter,
      chunkSize: chunkBytes,
      chunk(results: Papa.ParseResult<string[]>, parser: Papa.Parser) {
        parser.pause();
        onRecords(results.data).then(
          (stop) => {
            if (stop) {
              stopped = true;
              parser.abort();
              resolve();
            } else parser.resume();
          },
          (err: unknown) => {
            stopped = true;
            parser.abort();
            reject(err);
          },
        );
      },
      complete: () => {
        if (!stopped) resolve();
      },
    });
  });
}

const isBlank = (cells: string[]) => cells.every((c) => c.trim() === '');

export class ContactImports {
  private readonly runs = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly deps: ContactImportsDeps) {}

  private get db(): Database {
    return this.deps.db;
  }

  /** Reads the header and counts the rows (time-sliced): the 400s a file gets before anything is stored. */
  private async header(text: string): Promise<Header> {
    const guess = Papa.parse<string[]>(text.slice(0, 64 * 1024), { header: false, preview: 20, skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] });
    const delimiter = guess.meta.delimiter || ',';
    const slicer = new Slicer();
    let columns: string[] | null = null;
    let total = 0;
    let problem: string | null = null;
    await readChunks(text, delimiter, 256 * 1024, async (records) => {
      for (const cells of records) {
        if (isBlank(cells)) continue;
        if (!columns) {
          if (cells.length > CONTACT_IMPORT_LIMITS.columns) problem = CONTACT_IMPORT_MESSAGES.tooManyColumns;
          columns = importColumns(cells);
          continue;
        }
        total += 1;
        if (total > CONTACT_IMPORT_LIMITS.rows) problem = CONTACT_IMPORT_MESSAGES.tooManyRows;
      }
      if (slicer.due()) await slicer.yieldNow();
      return problem !== null;
    });
    if (problem) throw fieldError('file', problem);
    if (!columns || total === 0) throw fieldError('file', CONTACT_IMPORT_MESSAGES.empty);
    return { columns, delimiter, total };
  }

  /** POST /api/contacts/import/: checks, stores the import and starts it; its id. */
  async start(actor: ContactActor, upload: ImportUpload): Promise<{ id: number }> {
    // A member limited to their own rooms cannot change contacts they cannot see.
    if (await this.deps.restrictedEmail(actor)) throw forbidden();
    if (this.stopping) throw new ApiError(503, { detail: CONTACT_IMPORT_MESSAGES.failed, code: 'shutting_down' });
    if (upload.country !== null && !isImportCountry(upload.country)) throw fieldError('country', CONTACT_IMPORT_MESSAGES.country);
    const text = upload.text.replace(/^\uFEFF/, '');
    const header = await this.header(text);
    const definitions = await this.deps.attributes.list(actor.companyId);
    const mapping = upload.mapping ?? guessImportMapping(header.columns, definitions);
    const problems = mappingProblems(
      mapping,
      header.columns,
      definitions.map((d) => d.key),
    );
    if (problems.length) throw validationError({ mapping: problems });
    const row = await this.claim(actor, upload, mapping, header.total);
    const run = this.run(row, text, header, definitions)
      .catch((err: unknown) => this.deps.log.error({ err, importId: row.id }, 'contact import failed'))
      .finally(() => this.runs.delete(run));
    this.runs.add(run);
    return { id: row.id };
  }

  /** Stores the import as queued: the company's one import at a time (a stopped one is failed first). */
  private async claim(actor: ContactActor, upload: ImportUpload, mapping: ImportMapping, total: number): Promise<ImportRow> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const now = this.deps.now();
        const [row] = await this.db
          .insert(contactImports)
          .values({ companyId: actor.companyId, userId: actor.userId, state: 'queued', fileName: upload.fileName, mapping, country: upload.country, total, createdAt: now, heartbeatAt: now })
          .returning();
        return row;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        const [current] = await this.db
          .select()
          .from(contactImports)
          .where(and(eq(contactImports.companyId, actor.companyId), inArray(contactImports.state, ['queued', 'running'])));
        if (current && (await this.failIfStale(current)) === null && attempt < 2) continue;
        if (!current && attempt < 2) continue;
        // The running import's id beside the words, so the console can show its progress (as 409 contact_exists names the contact).
        const body = { detail: CONTACT_IMPORT_MESSAGES.busy, code: 'import_busy', id: current?.id ?? null };
        throw new ApiError(429, body as ApiErrorBody, { 'retry-after': '10' });
      }
    }
  }

  /** Fails a queued or running import whose heartbeat stopped; the row as it is now, or null when it was failed here. */
  private async failIfStale(row: ImportRow): Promise<ImportRow | null> {
    if (row.state !== 'queued' && row.state !== 'running') return row;
    const now = this.deps.now();
    if (now.getTime() - row.heartbeatAt.getTime() <= STALE_MS) return row;
    const [failed] = await this.db
      .update(contactImports)
      .set({ state: 'failed', error: CONTACT_IMPORT_MESSAGES.interrupted, finishedAt: now })
      .where(and(eq(contactImports.id, row.id), inArray(contactImports.state, ['queued', 'running']), lt(contactImports.heartbeatAt, new Date(now.getTime() - STALE_MS))))
      .returning();
    return failed ? null : row;
  }

  /** GET /api/contacts/import/{id}/: the import of the caller's company, else 404. */
  async status(companyId: number, id: number): Promise<ContactImport> {
    const [found] = await this.db
      .select()
      .from(contactImports)
      .where(and(eq(contactImports.id, id), eq(contactImports.companyId, companyId)));
    if (!found) throw notFound();
    let row = found;
    if ((await this.failIfStale(found)) === null) [row] = await this.db.select().from(contactImports).where(eq(contactImports.id, id));
    const skips = await this.db
      .select()
      .from(contactImportSkips)
      .where(eq(contactImportSkips.importId, id))
      .orderBy(asc(contactImportSkips.row))
      .limit(CONTACT_IMPORT_LIMITS.skippedListed);
    return {
      id: row.id,
      state: row.state,
      file_name: row.fileName,
      total: row.total,
      processed: row.processed,
      created: row.created,
      updated: row.updated,
      skipped_count: row.skippedCount,
      skipped: skips.map((s) =>
        skippedRow({ row: s.row, reason: s.reason, ...(s.field !== null ? { field: s.field } : {}), ...(s.value !== null ? { value: s.value } : {}), ...(s.firstRow !== null ? { first_row: s.firstRow } : {}) }),
      ),
      error: row.error,
      created_at: row.createdAt.toISOString(),
      finished_at: row.finishedAt?.toISOString() ?? null,
    };
  }

  /** Waits for the imports this process runs (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.runs.size) await Promise.allSettled([...this.runs]);
  }

  /** Shutdown: running imports stop at their next slice and are failed in plain words. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.settled();
  }

  private async finish(id: number, changes: Partial<typeof contactImports.$inferInsert>): Promise<void> {
    await this.db
      .update(contactImports)
      .set({ ...changes, finishedAt: this.deps.now(), heartbeatAt: this.deps.now() })
      .where(eq(contactImports.id, id));
  }

  private async run(imp: ImportRow, text: string, header: Header, definitionList: ContactAttribute[]): Promise<void> {
    await this.db.update(contactImports).set({ state: 'running', heartbeatAt: this.deps.now() }).where(eq(contactImports.id, imp.id));
    const definitions = new Map(definitionList.map((d) => [d.key, d]));
    const state: RunState = { firstRowOf: new Map(), rowOfContact: new Map(), tagIds: new Map() };
    const slicer = new Slicer();
    let columns: string[] | null = null;
    let recordIndex = 0;
    let interrupted = false;
    try {
      await readChunks(text, header.delimiter, IMPORT_CHUNK_BYTES, async (records) => {
        const rows: FileRow[] = [];
        for (const cells of records) {
          recordIndex += 1;
          if (isBlank(cells)) continue;
          if (!columns) {
            columns = header.columns;
            continue;
          }
          const record: Record<string, string> = {};
          columns.forEach((c, k) => (record[c] = (cells[k] ?? '').slice(0, CONTACT_IMPORT_LIMITS.cell)));
          rows.push({ row: recordIndex, cells: record, extra: cells.slice(columns.length).some((c) => c.trim() !== '') });
        }
        if (rows.length) await this.batch(imp, rows, definitions, state, slicer);
        if (this.stopping) {
          interrupted = true;
          return true;
        }
        await slicer.yieldNow();
      });
    } catch (err) {
      await this.finish(imp.id, { state: 'failed', error: CONTACT_IMPORT_MESSAGES.failed });
      throw err;
    }
    if (interrupted) await this.finish(imp.id, { state: 'failed', error: CONTACT_IMPORT_MESSAGES.interrupted });
    else await this.finish(imp.id, { state: 'done' });
  }

  /** One chunk of rows: the rules, then every write and the counters in one transaction (again once if a contact appeared meanwhile). */
  private async batch(imp: ImportRow, rows: FileRow[], definitions: Map<string, ContactAttribute>, state: RunState, slicer: Slicer): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      const snapshot = { firstRowOf: new Map(state.firstRowOf), rowOfContact: new Map(state.rowOfContact) };
      try {
        await this.writeBatch(imp, rows, definitions, state, slicer);
        return;
      } catch (err) {
        // A contact made meanwhile (a customer who wrote): read the chunk again, it is now an update.
        if (!isUniqueViolation(err) || attempt > 0) throw err;
        state.firstRowOf = snapshot.firstRowOf;
        state.rowOfContact = snapshot.rowOfContact;
      }
    }
  }

  private async writeBatch(imp: ImportRow, rows: FileRow[], definitions: Map<string, ContactAttribute>, state: RunState, slicer: Slicer): Promise<void> {
    const companyId = imp.companyId;
    const skips: ImportSkippedRow[] = [];
    const good: { row: number; values: ImportRowValues }[] = [];
    for (const { row, cells, extra } of rows) {
      if (slicer.due()) await slicer.yieldNow();
      if (extra) {
        skips.push(skippedRow({ row, reason: 'too_many_columns' }));
        continue;
      }
      const read = readImportRow(cells, imp.mapping, definitions, imp.country);
      if (!read.ok) {
        skips.push(skippedRow({ row, ...read.skip }));
        continue;
      }
      const { phone, externalId } = read.values;
      const key = phone ? `p:${phone}` : `e:${externalId}`;
      const earlier = state.firstRowOf.get(key) ?? (phone && externalId ? state.firstRowOf.get(`e:${externalId}`) : undefined);
      if (earlier !== undefined) {
        skips.push(skippedRow({ row, reason: 'duplicate', field: phone ? 'phone' : 'external_id', value: phone ?? externalId ?? '', first_row: earlier }));
        continue;
      }
      state.firstRowOf.set(key, row);
      if (phone && externalId) state.firstRowOf.set(`e:${externalId}`, row);
      good.push({ row, values: read.values });
    }

    // Existing contacts: by phone first, then by external id.
    const phones = good.map((g) => g.values.phone).filter((p): p is string => !!p);
    const byPhone = new Map<string, number>();
    if (phones.length) {
      const found = await this.db
        .select({ id: contacts.id, phone: contacts.phone })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), sql`${contacts.phone} in (select jsonb_array_elements_text(${JSON.stringify(phones)}::jsonb))`));
      for (const f of found) byPhone.set(f.phone!, f.id);
    }
    const externalIds = good.filter((g) => !(g.values.phone && byPhone.has(g.values.phone)) && g.values.externalId).map((g) => g.values.externalId!);
    const byExternal = new Map<string, number>();
    if (externalIds.length) {
      const found = await this.db
        .select({ id: contacts.id, externalId: contacts.externalId })
        .from(contacts)
        .where(and(eq(contacts.companyId, companyId), sql`${contacts.externalId} in (select jsonb_array_elements_text(${JSON.stringify(externalIds)}::jsonb))`))
        .orderBy(asc(contacts.id));
      for (const f of found) if (!byExternal.has(f.externalId!)) byExternal.set(f.externalId!, f.id);
    }

    const updates: { row: number; id: number; values: ImportRowValues }[] = [];
    const inserts: { row: number; values: ImportRowValues }[] = [];
    for (const g of good) {
      const id = (g.values.phone ? byPhone.get(g.values.phone) : undefined) ?? (g.values.externalId ? byExternal.get(g.values.externalId) : undefined);
      if (id !== undefined) {
        const earlier = state.rowOfContact.get(id);
        if (earlier !== undefined) {
          skips.push(skippedRow({ row: g.row, reason: 'duplicate', field: g.values.phone ? 'phone' : 'external_id', value: g.values.phone ?? g.values.externalId ?? '', first_row: earlier }));
          continue;
        }
        state.rowOfContact.set(id, g.row);
        updates.push({ row: g.row, id, values: g.values });
      } else if (!g.values.phone) {
        skips.push(skippedRow({ row: g.row, reason: 'unknown_external_id', field: 'external_id', value: g.values.externalId ?? '' }));
      } else inserts.push(g);
    }

    // The company's tags the rows name (made when missing), once per import.
    for (const name of new Set([...updates, ...inserts].flatMap((g) => g.values.tags))) {
      const lower = name.toLowerCase();
      if (!state.tagIds.has(lower)) state.tagIds.set(lower, (await this.deps.ensureTag(companyId, name)).id);
    }

    const now = this.deps.now();
    // Each write is one statement whose rows travel as ONE jsonb parameter (jsonb_to_recordset): building and
    // binding hundreds of parameters per statement cost more than the writes themselves.
    const json = (rows: unknown[]) => JSON.stringify(rows);
    await this.db.transaction(async (tx) => {
      const tagRows: { contact_id: number; tag_id: number }[] = [];
      const tagsOf = (contactId: number, values: ImportRowValues) => {
        for (const name of values.tags) tagRows.push({ contact_id: contactId, tag_id: state.tagIds.get(name.toLowerCase())! });
      };
      if (inserts.length) {
        const rowsIn = inserts.map((g) => ({ name: g.values.name ?? g.values.phone!, phone: g.values.phone, email: g.values.email, attributes: g.values.attributes }));
        const made = await tx.execute<{ id: number; phone: string }>(sql`
          insert into ${contacts} (company_id, name, phone, email, attributes, created_at)
          select ${companyId}, r.name, r.phone, r.email, r.attributes, ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${json(rowsIn)}::jsonb) as r(name text, phone text, email text, attributes jsonb)
          returning id, phone`);
        const idOf = new Map(rowsOf<{ id: number; phone: string }>(made).map((m) => [m.phone, Number(m.id)]));
        for (const g of inserts) {
          const id = idOf.get(g.values.phone!)!;
          state.rowOfContact.set(id, g.row);
          tagsOf(id, g.values);
        }
      }
      if (updates.length) {
        const rowsIn = updates.map((u) => ({ id: u.id, name: u.values.name, email: u.values.email, phone: u.values.phone, attributes: u.values.attributes }));
        await tx.execute(sql`
          update ${contacts} as c set
            name = coalesce(v.name, c.name),
            email = coalesce(v.email, c.email),
            phone = coalesce(c.phone, v.phone),
            attributes = c.attributes || v.attributes
          from jsonb_to_recordset(${json(rowsIn)}::jsonb) as v(id int, name text, email text, phone text, attributes jsonb)
          where c.id = v.id and c.company_id = ${companyId}`);
        for (const u of updates) tagsOf(u.id, u.values);
      }
      if (tagRows.length) {
        await tx.execute(sql`
          insert into ${contactTags} (contact_id, tag_id)
          select r.contact_id, r.tag_id from jsonb_to_recordset(${json(tagRows)}::jsonb) as r(contact_id int, tag_id int)
          on conflict do nothing`);
      }
      if (skips.length) {
        const rowsIn = skips.map((k) => ({ row: k.row, reason: k.reason, field: k.field ?? null, value: k.value ?? null, first_row: k.first_row ?? null }));
        await tx.execute(sql`
          insert into ${contactImportSkips} (import_id, "row", reason, field, value, first_row)
          select ${imp.id}, r."row", r.reason, r.field, r.value, r.first_row
          from jsonb_to_recordset(${json(rowsIn)}::jsonb) as r("row" int, reason text, field text, value text, first_row int)
          on conflict do nothing`);
      }
      await tx
        .update(contactImports)
        .set({
          processed: sql`${contactImports.processed} + ${rows.length}`,
          created: sql`${contactImports.created} + ${inserts.length}`,
          updated: sql`${contactImports.updated} + ${updates.length}`,
          skippedCount: sql`${contactImports.skippedCount} + ${skips.length}`,
          heartbeatAt: now,
        })
        .where(eq(contactImports.id, imp.id));
    });
  }
}

interface RunState {
  /** `p:<phone>` / `e:<external id>` → the first row that had it. */
  firstRowOf: Map<string, number>;
  /** Contact id → the row that created or updated it. */
  rowOfContact: Map<number, number>;
  /** Lower-cased tag name → the company's tag id. */
  tagIds: Map<string, number>;
}
