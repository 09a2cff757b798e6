/**
 * An in-memory /api/agent-templates/ for component tests, per company (the Company header is the
 * account's selected company at call time), validating like the server: blank fields and
 * case-insensitive duplicate names answer 400 with field errors. `fail` makes the next call of a
 * method fail with the given status and body.
 */
import { AGENT_TEMPLATE_MESSAGES, type AgentTemplate } from '../../../../contract/agentTemplates';
import type { AccountStore, RequestOptions } from '../../../core/apis';
import { HttpError } from '../../../core';

export interface FakeAgentTemplates {
  byCompany: Map<number, AgentTemplate[]>;
  fail: Partial<Record<'GET' | 'POST' | 'PUT' | 'DELETE', { status: number; body: unknown }>>;
  /** Answers the call when it is an agent-templates call; undefined otherwise. */
  handle(method: string, path: string, options: RequestOptions): { handled: boolean; value?: unknown };
}

let nextId = 1;

export function agentTemplate(name: string, text: string, id = nextId++): AgentTemplate {
  return { id, name, text, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' };
}

export function createFakeAgentTemplates(account: () => AccountStore, seed: Record<number, AgentTemplate[]> = {}): FakeAgentTemplates {
  const byCompany = new Map<number, AgentTemplate[]>(Object.entries(seed).map(([k, v]) => [Number(k), [...v]]));
  const fail: FakeAgentTemplates['fail'] = {};
  const list = () => {
    const id = account().getCompanyId()!;
    if (!byCompany.has(id)) byCompany.set(id, []);
    return byCompany.get(id)!;
  };
  const validate = (body: { name?: string; text?: string }, exceptId?: number) => {
    const errors: Record<string, string[]> = {};
    const name = (body.name ?? '').trim();
    if (!name) errors.name = ['This field may not be blank.'];
    else if (list().some((x) => x.id !== exceptId && x.name.toLowerCase() === name.toLowerCase())) errors.name = [AGENT_TEMPLATE_MESSAGES.duplicateName];
    if (!(body.text ?? '').trim()) errors.text = ['This field may not be blank.'];
    if (Object.keys(errors).length) throw new HttpError(400, errors);
    return { name, text: body.text! };
  };

  return {
    byCompany,
    fail,
    handle(method, path, options) {
      const m = /^\/api\/agent-templates\/(?:(\d+)\/?)?$/.exec(path);
      if (!m) return { handled: false };
      const failure = fail[method as keyof typeof fail];
      if (failure) {
        delete fail[method as keyof typeof fail];
        throw new HttpError(failure.status, failure.body);
      }
      const id = m[1] ? Number(m[1]) : null;
      const items = list();
      if (method === 'GET' && id === null) return { handled: true, value: { count: items.length, next: null, previous: null, results: [...items] } };
      if (method === 'POST' && id === null) {
        const created = agentTemplate(...Object.values(validate(options.body as object)) as [string, string]);
        items.push(created);
        return { handled: true, value: created };
      }
      const at = items.findIndex((x) => x.id === id);
      if (at < 0) throw new HttpError(404, { detail: 'Not found.', code: 'not_found' });
      if (method === 'PUT') {
        items[at] = { ...items[at], ...validate(options.body as object, id!) };
        return { handled: true, value: items[at] };
      }
      if (method === 'DELETE') {
        items.splice(at, 1);
        return { handled: true, value: undefined };
      }
      throw new HttpError(405, { detail: 'Method not allowed.' });
    },
  };
}
