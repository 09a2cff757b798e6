/**
 * A readable view of a served OpenAPI document (server/plugins/resources/openapi.ts): operations
 * grouped by area tag, each with its method, path, who may call it, its parameters and body fields.
 * Read defensively: the document comes over the network.
 */

export type AuthKind = 'public' | 'user' | 'company' | 'botKey';

export interface FieldView {
  name: string;
  /** Where a parameter goes (path, query, header), or 'body'. */
  in: string;
  type: string;
  required: boolean;
  /** Constraints worth showing: enum values, lengths, formats. */
  notes: string[];
}

export interface OperationView {
  id: string;
  method: string;
  path: string;
  tag: string;
  description: string;
  /** The access rule as the server declares it, e.g. `company(members, view)`. */
  access: string;
  auth: AuthKind;
  fields: FieldView[];
}

export interface OpenApiView {
  title: string;
  version: string;
  serverUrl: string;
  groups: { tag: string; operations: OperationView[] }[];
  count: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

function resolve(doc: Obj, schema: unknown, depth = 0): Obj {
  if (!isObj(schema)) return {};
  const ref = str(schema.$ref);
  if (ref.startsWith('#/') && depth < 5) {
    let node: unknown = doc;
    for (const part of ref.slice(2).split('/')) node = isObj(node) ? node[part] : undefined;
    return resolve(doc, node, depth + 1);
  }
  return schema;
}

/** A short type for a JSON Schema: `string`, `integer`, `array of string`, `"a" | "b"`, `object`. */
export function typeOf(schema: Obj, doc: Obj = {}, depth = 0): string {
  if (depth > 3) return 'object';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const variants = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null) as unknown[] | null;
  if (variants) return [...new Set(variants.map((v) => typeOf(resolve(doc, v), doc, depth + 1)))].join(' | ');
  const type = Array.isArray(schema.type) ? (schema.type as unknown[]).map(String).join(' | ') : str(schema.type);
  if (type === 'array') return `array of ${typeOf(resolve(doc, schema.items), doc, depth + 1)}`;
  return type || 'any';
}

function notesOf(schema: Obj): string[] {
  const notes: string[] = [];
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : null);
  if (str(schema.format)) notes.push(str(schema.format));
  if (num('minLength') !== null && num('minLength')! > 0) notes.push(`min ${num('minLength')}`);
  if (num('maxLength') !== null) notes.push(`max ${num('maxLength')}`);
  if (num('minimum') !== null) notes.push(`≥ ${num('minimum')}`);
  if (num('maximum') !== null) notes.push(`≤ ${num('maximum')}`);
  if (num('maxItems') !== null) notes.push(`≤ ${num('maxItems')} items`);
  return notes;
}

function authOf(security: unknown): AuthKind {
  const names = Array.isArray(security) ? security.flatMap((req) => (isObj(req) ? Object.keys(req) : [])) : [];
  if (names.includes('botAccessKey')) return 'botKey';
  if (names.includes('companyHeader')) return 'company';
  if (names.includes('bearerAuth')) return 'user';
  return 'public';
}

function operationView(doc: Obj, method: string, path: string, op: Obj): OperationView {
  const fields: FieldView[] = [];
  for (const raw of Array.isArray(op.parameters) ? op.parameters : []) {
    const p = resolve(doc, raw);
    const schema = resolve(doc, p.schema);
    fields.push({ name: str(p.name), in: str(p.in), type: typeOf(schema, doc), required: p.required === true, notes: notesOf(schema) });
  }
  const body = isObj(op.requestBody) && isObj(op.requestBody.content) ? op.requestBody.content['application/json'] : undefined;
  const bodySchema = resolve(doc, isObj(body) ? body.schema : undefined);
  const required = Array.isArray(bodySchema.required) ? bodySchema.required.map(String) : [];
  if (isObj(bodySchema.properties)) {
    for (const [name, raw] of Object.entries(bodySchema.properties)) {
      const schema = resolve(doc, raw);
      fields.push({ name, in: 'body', type: typeOf(schema, doc), required: required.includes(name), notes: notesOf(schema) });
    }
  } else if (Object.keys(bodySchema).length > 0) {
    fields.push({ name: '(body)', in: 'body', type: typeOf(bodySchema, doc), required: true, notes: notesOf(bodySchema) });
  }
  const tags = Array.isArray(op.tags) ? op.tags.map(String) : [];
  return {
    id: str(op.operationId, `${method}_${path}`),
    method: method.toUpperCase(),
    path,
    tag: tags[0] ?? 'other',
    description: str(op.description),
    access: str(op['x-access']),
    auth: authOf(op.security),
    fields,
  };
}

export function openApiView(raw: unknown): OpenApiView {
  const doc = isObj(raw) ? raw : {};
  const info = isObj(doc.info) ? doc.info : {};
  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  const byTag = new Map<string, OperationView[]>();
  let count = 0;
  for (const [path, item] of Object.entries(isObj(doc.paths) ? doc.paths : {})) {
    if (!isObj(item)) continue;
    for (const method of METHODS) {
      if (!isObj(item[method])) continue;
      const view = operationView(doc, method, path, item[method]);
      byTag.set(view.tag, [...(byTag.get(view.tag) ?? []), view]);
      count++;
    }
  }
  const groups = [...byTag.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([tag, operations]) => ({ tag, operations: operations.sort((a, b) => a.path.localeCompare(b.path) || METHODS.indexOf(a.method.toLowerCase() as 'get') - METHODS.indexOf(b.method.toLowerCase() as 'get')) }));
  return { title: str(info.title), version: str(info.version), serverUrl: isObj(servers[0]) ? str(servers[0].url) : '', groups, count };
}

/** Operations whose path, method, tag or description contain every word of the query (case-insensitive). */
export function filterOperations(view: OpenApiView, query: string): OpenApiView['groups'] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return view.groups;
  return view.groups
    .map((g) => ({
      tag: g.tag,
      operations: g.operations.filter((op) => {
        const text = `${op.method} ${op.path} ${op.tag} ${op.description} ${op.fields.map((f) => f.name).join(' ')}`.toLowerCase();
        return words.every((w) => text.includes(w));
      }),
    }))
    .filter((g) => g.operations.length > 0);
}
