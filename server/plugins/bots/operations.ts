/**
 * Operations ("generated functions", contract/bots.ts Operation): named HTTP calls a bot's
 * run_operation action makes, with `{{variable}}` templates in the URL, header values and body and a
 * response_mapping that turns response fields into conversation variables.
 *
 *  - OperationService: list, create, delete, and `generate` (POST /api/operations/example/) from a
 *    pasted curl command or a sample request (and response).
 *  - runOperation(op, variables, options): the call itself, for the runtime. A timeout, a response
 *    size cap, no redirects followed, and no private, loopback, link-local or reserved address
 *    (request-filtering-agent checks the address each connection actually resolves to, so DNS
 *    rebinding is caught too) unless listed in BOT_OPERATION_ALLOW_IPS.
 */
import http from 'node:http';
import https from 'node:https';
import { and, asc, eq, sql } from 'drizzle-orm';
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from 'request-filtering-agent';
import { parse as parseShell } from 'shell-quote';
import {
  BOT_MESSAGES,
  OPERATION_LIMITS,
  OPERATION_METHODS,
  OperationBody,
  templateVariables,
  type Operation,
  type OperationListResponse,
  type OperationMethod,
} from '../../../contract/bots';
import type { Clock } from '../../core/clock';
import type { SecretBox } from '../../core/crypto/secretBox';
import type { Database } from '../../core/db/client';
import { ApiError, fieldError, notFound, parseFields } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { botOperations } from './schema';

type OperationRow = typeof botOperations.$inferSelect;
type OperationInput = ReturnType<typeof OperationBody.parse>;

/** Header values (API keys, tokens) are sealed at rest with the secret box, like channel tokens. */
export function sealHeaders(box: SecretBox, headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, box.seal(value)]));
}

export function openHeaders(box: SecretBox, headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.startsWith('v1:') ? box.open(value) : value]));
}

export function toOperation(stored: OperationRow, box: SecretBox): Operation {
  const row = { ...stored, headers: openHeaders(box, stored.headers) };
  const variables = new Set<string>([...templateVariables(row.url), ...Object.values(row.headers).flatMap(templateVariables), ...templateVariables(row.body ?? '')]);
  return {
    id: row.id,
    name: row.name,
    method: row.method,
    url: row.url,
    headers: row.headers,
    body: row.body,
    response_mapping: row.responseMapping,
    variables: [...variables],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** "Couldn't generate function": nothing usable in the example (no field to blame). */
export function generationFailed(): ApiError {
  return new ApiError(400, { detail: BOT_MESSAGES.couldNotGenerateFunction, code: 'generation_failed' });
}

// ---------------------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------------------

export interface OperationRunOptions {
  timeoutMs: number;
  maxBytes: number;
  /** Addresses or CIDR ranges allowed although private/loopback (BOT_OPERATION_ALLOW_IPS). */
  allowIps: string[];
}

export interface OperationResult {
  ok: boolean;
  /** HTTP status (0 when no response: refused address, timeout, network error). */
  status: number;
  /** Variables set from the response (response_mapping); strings, objects as JSON. */
  variables: Record<string, string>;
  /** The parsed JSON response (or the text), when there was one. */
  response: unknown;
  /** Why it failed (never the response body). */
  error: string | null;
}

/** Replaces `{{name}}` with the variable (empty when unknown); `json` escapes for a JSON string context. */
export function renderTemplate(text: string, variables: Record<string, string>, mode: 'plain' | 'json' | 'url' = 'plain'): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_.]*)\s*\}\}/g, (_, name: string) => {
    const value = variables[name] ?? '';
    if (mode === 'url') return encodeURIComponent(value);
    if (mode === 'json') return JSON.stringify(value).slice(1, -1);
    return value;
  });
}

/** A dotted path (`data.items.0.id`) into a parsed JSON value. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, key)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function isJsonText(text: string): boolean {
  const t = text.trim();
  return t.startsWith('{') || t.startsWith('[');
}

/** Renders the URL: `{{variables}}` in the query and path are URL-encoded (only the origin is literal). */
function renderUrl(template: string, variables: Record<string, string>): URL {
  const origin = /^(https?:\/\/[^/?#]*)(.*)$/i.exec(template);
  if (!origin) throw new Error('invalid URL');
  return new URL(renderTemplate(origin[1], variables, 'plain') + renderTemplate(origin[2], variables, 'url'));
}

export type RunnableOperation = Pick<Operation, 'method' | 'url' | 'headers' | 'body' | 'response_mapping'>;

/**
 * Runs an operation with the conversation's variables. Never throws: a failure is `{ok: false, error}`.
 * Redirects are not followed (a 3xx is the answer).
 */
export async function runOperation(op: RunnableOperation, variables: Record<string, string>, options: OperationRunOptions): Promise<OperationResult> {
  const fail = (status: number, error: string, response: unknown = null): OperationResult => ({ ok: false, status, variables: {}, response, error });
  let url: URL;
  try {
    url = renderUrl(op.url, variables);
  } catch {
    return fail(0, 'invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(0, 'invalid URL');
  if (url.username || url.password) return fail(0, 'credentials in the URL are not allowed');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(op.headers)) headers[name] = renderTemplate(value, variables).replace(/[\r\n]/g, ' ');
  let body: string | undefined;
  if (op.body !== null && op.method !== 'GET') {
    body = renderTemplate(op.body, variables, isJsonText(op.body) ? 'json' : 'plain');
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = isJsonText(op.body) ? 'application/json' : 'text/plain; charset=utf-8';
  }
  const filter = { allowPrivateIPAddress: false, allowIPAddressList: options.allowIps };
  const agent = url.protocol === 'https:' ? new RequestFilteringHttpsAgent({ ...filter, keepAlive: false }) : new RequestFilteringHttpAgent({ ...filter, keepAlive: false });
  const transport = url.protocol === 'https:' ? https : http;

  return new Promise<OperationResult>((resolve) => {
    let settled = false;
    const done = (result: OperationResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      agent.destroy();
      resolve(result);
    };
    const request = transport.request(url, { method: op.method, headers: { accept: 'application/json, text/plain;q=0.9, */*;q=0.5', ...headers }, agent }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          request.destroy();
          done(fail(response.statusCode ?? 0, `response larger than ${options.maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', () => done(fail(response.statusCode ?? 0, 'response interrupted')));
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown = text;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          /* not JSON: kept as text */
        }
        const ok = status >= 200 && status < 300;
        const out: Record<string, string> = {};
        if (ok) {
          for (const { variable, path } of op.response_mapping) {
            const value = valueAtPath(parsed, path);
            if (value === undefined || value === null) continue;
            out[variable] = typeof value === 'string' ? value : JSON.stringify(value);
          }
        }
        done({ ok, status, variables: out, response: parsed, error: ok ? null : `HTTP ${status}` });
      });
    });
    const timer = setTimeout(() => {
      request.destroy();
      done(fail(0, `timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    request.on('error', (err) => {
      const message = /not allowed/i.test(err.message) ? 'the address is private or reserved and not allowed' : 'network error';
      done(fail(0, message));
    });
    if (body !== undefined) request.write(body);
    request.end();
  });
}

// ---------------------------------------------------------------------------------------------
// Generating from an example
// ---------------------------------------------------------------------------------------------

export interface GeneratedOperation {
  method: OperationMethod;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

const CURL_FLAGS_WITHOUT_VALUE = new Set([
  '-s', '--silent', '-S', '--show-error', '-L', '--location', '-k', '--insecure', '-i', '--include', '-v', '--verbose',
  '--compressed', '-f', '--fail', '--fail-with-body', '-g', '--globoff', '-#', '--progress-bar', '-N', '--no-buffer', '--http1.1', '--http2',
]);
const CURL_DATA = new Set(['-d', '--data', '--data-raw', '--data-binary', '--data-ascii', '--data-urlencode']);

function curlError(message: string): ApiError {
  return fieldError('curl', message);
}

/** Splits a curl command (shell quoting, `\` line continuations) into its request. */
export function parseCurl(command: string): GeneratedOperation {
  const joined = command.replace(/\\\r?\n/g, ' ').replace(/\^\r?\n/g, ' ').trim();
  let entries: ReturnType<typeof parseShell>;
  try {
    // `$NAME` is kept as written (not expanded to nothing).
    entries = parseShell(joined, (name: string) => `$${name}`);
  } catch {
    throw curlError('This curl command could not be read (check its quotes).');
  }
  const args: string[] = [];
  for (const entry of entries) {
    if (typeof entry === 'string') args.push(entry);
    else if ('op' in entry && entry.op === 'glob') args.push(entry.pattern);
    else if ('comment' in entry) break;
    else throw curlError('Paste one curl command, without pipes or redirections.');
  }
  if (args[0] !== 'curl') throw curlError('Enter a curl command (it starts with "curl").');
  let method: string | null = null;
  let url: string | null = null;
  let forceGet = false;
  const headers: Record<string, string> = {};
  const data: string[] = [];
  const take = (i: number, name: string): string => {
    if (i >= args.length) throw curlError(`The option ${name} needs a value.`);
    return args[i];
  };
  for (let i = 1; i < args.length; i++) {
    let arg = args[i];
    let attached: string | null = null;
    // -XPOST, -H'x: y', --request=POST
    const long = /^(--[a-z0-9-]+)=(.*)$/is.exec(arg);
    if (long) [arg, attached] = [long[1], long[2]];
    else if (/^-[XHdAeub]./.test(arg)) [arg, attached] = [arg.slice(0, 2), arg.slice(2)];
    const value = (name: string) => attached ?? take(++i, name);
    if (arg === '-X' || arg === '--request') method = value(arg).toUpperCase();
    else if (arg === '-H' || arg === '--header') {
      const header = value(arg);
      const colon = header.indexOf(':');
      if (colon <= 0) throw curlError(`The header "${header.slice(0, 60)}" has no "name: value".`);
      headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
    } else if (CURL_DATA.has(arg)) data.push(value(arg));
    else if (arg === '--json') {
      data.push(value(arg));
      headers['Content-Type'] ??= 'application/json';
      headers.Accept ??= 'application/json';
    } else if (arg === '-u' || arg === '--user') headers.Authorization = `Basic ${Buffer.from(value(arg)).toString('base64')}`;
    else if (arg === '-A' || arg === '--user-agent') headers['User-Agent'] = value(arg);
    else if (arg === '-e' || arg === '--referer') headers.Referer = value(arg);
    else if (arg === '-b' || arg === '--cookie') headers.Cookie = value(arg);
    else if (arg === '--url') url = value(arg);
    else if (arg === '-G' || arg === '--get') forceGet = true;
    else if (arg === '-o' || arg === '--output' || arg === '-m' || arg === '--max-time' || arg === '--connect-timeout' || arg === '--retry') value(arg);
    else if (CURL_FLAGS_WITHOUT_VALUE.has(arg)) continue;
    else if (arg.startsWith('-') && arg.length > 1) throw curlError(`The curl option ${arg} is not supported.`);
    else if (url === null) url = arg;
    else throw curlError(`Unexpected "${arg.slice(0, 60)}": give one URL.`);
  }
  if (!url) throw curlError('Enter a curl command with a URL.');
  if (!/^https?:\/\//i.test(url)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(url)) throw curlError('Only http and https URLs can be called.');
    url = `https://${url}`;
  }
  let body: string | null = data.length > 0 ? data.join('&') : null;
  if (forceGet && body !== null) {
    url += (url.includes('?') ? '&' : '?') + body;
    body = null;
  }
  const finalMethod = method ?? (forceGet ? 'GET' : body !== null ? 'POST' : 'GET');
  if (!(OPERATION_METHODS as readonly string[]).includes(finalMethod)) throw curlError(`The method ${finalMethod} is not supported (use ${OPERATION_METHODS.join(', ')}).`);
  if (body !== null && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = isJsonText(body) ? 'application/json' : 'application/x-www-form-urlencoded';
  }
  return { method: finalMethod as OperationMethod, url, headers, body };
}

/** response_mapping from a sample response: its leaf fields (up to 3 levels, first array item), as variables. */
export function mappingFromSample(sample: unknown): { variable: string; path: string }[] {
  let value = sample;
  if (typeof value === 'string') {
    if (!value.trim()) return [];
    try {
      value = JSON.parse(value);
    } catch {
      throw fieldError('response', 'The sample response is not JSON.');
    }
  }
  const out: { variable: string; path: string }[] = [];
  const used = new Set<string>();
  const walk = (node: unknown, path: string[], depth: number) => {
    if (out.length >= OPERATION_LIMITS.mappings) return;
    if (node !== null && typeof node === 'object' && depth < 4) {
      const entries = Array.isArray(node) ? (node.length > 0 ? [['0', node[0]] as const] : []) : Object.entries(node);
      for (const [key, child] of entries) {
        if (!/^[A-Za-z0-9_$-]+$/.test(key)) continue;
        walk(child, [...path, key], depth + 1);
      }
      return;
    }
    if (path.length === 0) return;
    let variable = path.join('_').replace(/[^A-Za-z0-9_]/g, '_').slice(0, 60);
    if (!/^[A-Za-z_]/.test(variable)) variable = `v_${variable}`;
    while (used.has(variable)) variable = `${variable}_`;
    used.add(variable);
    out.push({ variable, path: path.join('.') });
  };
  walk(value, [], 0);
  return out;
}

function defaultName(op: GeneratedOperation): string {
  try {
    const url = new URL(op.url.replace(/\{\{[^}]*\}\}/g, 'x'));
    return `${op.method} ${url.host}${url.pathname === '/' ? '' : url.pathname}`.slice(0, OPERATION_LIMITS.name);
  } catch {
    return `${op.method} operation`;
  }
}

// ---------------------------------------------------------------------------------------------
// Stored operations
// ---------------------------------------------------------------------------------------------

export class OperationService {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly box: SecretBox,
  ) {}

  async list(companyId: number): Promise<OperationListResponse> {
    const rows = await this.db.select().from(botOperations).where(eq(botOperations.companyId, companyId)).orderBy(asc(sql`lower(${botOperations.name})`), asc(botOperations.id));
    return { count: rows.length, results: rows.map((row) => toOperation(row, this.box)) };
  }

  /** The company's operation (the runtime's run_operation), or null. */
  async find(companyId: number, id: number): Promise<Operation | null> {
    const [row] = await this.db.select().from(botOperations).where(and(eq(botOperations.companyId, companyId), eq(botOperations.id, id)));
    return row ? toOperation(row, this.box) : null;
  }

  async create(companyId: number, body: OperationInput): Promise<Operation> {
    try {
      const now = this.clock.now();
      const [row] = await this.db
        .insert(botOperations)
        .values({ companyId, name: body.name, method: body.method, url: body.url, headers: sealHeaders(this.box, body.headers), body: body.body, responseMapping: body.response_mapping, createdAt: now, updatedAt: now })
        .returning();
      return toOperation(row, this.box);
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('name', 'An operation with this name already exists.');
      throw err;
    }
  }

  async remove(companyId: number, id: number): Promise<void> {
    const deleted = await this.db.delete(botOperations).where(and(eq(botOperations.companyId, companyId), eq(botOperations.id, id))).returning({ id: botOperations.id });
    if (deleted.length === 0) throw notFound();
  }

  /**
   * POST /api/operations/example/: builds the operation from the example and saves it. What cannot be
   * read is refused with the first field error; an example that yields nothing usable with
   * "Couldn't generate function".
   */
  async generate(
    companyId: number,
    example: {
      name?: string;
      curl?: string;
      request?: { method: OperationMethod; url: string; headers: Record<string, string>; body: unknown };
      response?: unknown;
    },
  ): Promise<Operation> {
    let generated: GeneratedOperation;
    if (example.curl !== undefined && example.curl.trim() !== '') generated = parseCurl(example.curl);
    else if (example.request) {
      const body = example.request.body;
      generated = {
        method: example.request.method,
        url: example.request.url,
        headers: example.request.headers,
        body: body === null || body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body, null, 2),
      };
    } else throw generationFailed();
    const mapping = example.response === undefined || example.response === null ? [] : mappingFromSample(example.response);
    const candidate = { name: example.name ?? defaultName(generated), ...generated, response_mapping: mapping };
    const parsed = parseFields(OperationBody, candidate);
    if (!parsed.ok) {
      const [field, messages] = Object.entries(parsed.fields)[0] ?? [];
      if (!field) throw generationFailed();
      // The generated field comes from the example: blame the part of the example it came from.
      throw fieldError(example.curl ? 'curl' : field === 'name' ? 'name' : `request.${field}`, messages[0]);
    }
    let name = parsed.value.name;
    for (let n = 2; n < 100; n++) {
      const taken = await this.db
        .select({ id: botOperations.id })
        .from(botOperations)
        .where(and(eq(botOperations.companyId, companyId), sql`lower(${botOperations.name}) = lower(${name})`));
      if (taken.length === 0) break;
      name = `${parsed.value.name.slice(0, OPERATION_LIMITS.name - 6)} (${n})`;
    }
    return this.create(companyId, { ...parsed.value, name });
  }
}
