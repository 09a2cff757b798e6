/**
 * The flow calls of the bot service (contract/flows.ts lists them, spec §7). They go through the
 * bots plugin's client: its integration (the company's endpoint + access_key, cached per company,
 * asked again after a company switch) and its NoBotAccessError. Only the test chat is a main-API
 * call (bearer + Company), like the bots' one.
 */
import { configApiRef, createApiFactory, createApiRef, httpApiRef, sessionApiRef, type ConsoleConfig, type HttpProvider, type SessionStore } from '../../../core';
import { HttpError } from '../../../core/http/HttpError';
import type { Flow, FlowCreateBody, FlowListResponse, FlowSaveBody, FlowStats, FlowVersionDetail, FlowVersionListResponse } from '../../../../contract/flows';
import type { FlowTestChatBody, FlowTestChatResponse } from '../model/testChat';
import { botServiceApiRef, NoBotAccessError, type BotServiceApi } from '../../bots';

export { NoBotAccessError };

export interface FlowServiceApi {
  listFlows(): Promise<FlowListResponse>;
  /** Sends only the five creation fields (spec §3). */
  createFlow(body: FlowCreateBody): Promise<Flow>;
  getFlow(id: number): Promise<Flow>;
  saveFlow(id: number, body: FlowSaveBody): Promise<Flow>;
  /** Fails locally with 'Flow name is undefined' when the flow has no id (spec §7). */
  deleteFlow(flow: { id?: number | null }): Promise<void>;
  stats(id: number): Promise<FlowStats>;
  versions(id: number): Promise<FlowVersionListResponse>;
  version(id: number, versionId: number): Promise<FlowVersionDetail>;
  restore(id: number, versionId: number): Promise<Flow>;
  /** Main API POST /api/flows/{id}/test-chat/: one turn of the private test conversation. */
  testChat(id: number, body: FlowTestChatBody): Promise<FlowTestChatResponse>;
}

export const flowServiceApiRef = createApiRef<FlowServiceApi>({ id: 'plugin.flows.service' });

/** Only the five creation fields leave the console (spec §3/§7). */
export function creationPayload(body: FlowCreateBody): FlowCreateBody {
  return { flow_name: body.flow_name, description: body.description, company_name: body.company_name, company_domain: body.company_domain, extra_context: body.extra_context ?? [] };
}

/**
 * The member's access token for a bot service on the console's own origin (our server), so a flow version names
 * the person who saved it; never sent to a bot service elsewhere (the key alone authorises the call).
 */
export function consoleTokenHeader(baseUrl: string, session: Pick<SessionStore, 'getAccessToken'> | undefined, origin = globalThis.location?.origin): Record<string, string> {
  const token = session?.getAccessToken();
  if (!token || !origin) return {};
  try {
    return new URL(baseUrl, origin).origin === origin ? { 'X-Console-Token': token } : {};
  } catch {
    return {};
  }
}

export function createFlowService(deps: { http: HttpProvider; bots: BotServiceApi; config: ConsoleConfig; session?: Pick<SessionStore, 'getAccessToken'> }): FlowServiceApi {
  const { http, bots, config, session } = deps;

  async function call<T>(method: string, path: string, body?: unknown, retried = false): Promise<T> {
    const { endpoint, access_key } = await bots.integration();
    if (!access_key) throw new NoBotAccessError();
    try {
      const baseUrl = (endpoint || config.botServiceUrl).replace(/\/+$/, '');
      return await http.request<T>(method, path, { baseUrl, auth: false, body, query: { access_key }, headers: consoleTokenHeader(baseUrl, session) });
    } catch (error) {
      // the key was rotated meanwhile: ask the bots client for the current one, once
      if (!retried && error instanceof HttpError && (error.status === 401 || error.status === 403)) {
        await bots.integration({ refresh: true });
        return call<T>(method, path, body, true);
      }
      throw error;
    }
  }
  const flow = (id: number) => `/api/flows/${encodeURIComponent(String(id))}/`;

  return {
    listFlows: () => call('GET', '/api/flows/'),
    createFlow: (body) => call('POST', '/api/flows/', creationPayload(body)),
    getFlow: (id) => call('GET', flow(id)),
    saveFlow: (id, body) => call('POST', `${flow(id)}save/`, body),
    async deleteFlow(target) {
      // Imported here: contract/flows (zod schemas of the flow pages) stays out of the shell's chunk.
      if (target.id === undefined || target.id === null) throw new Error((await import('../../../../contract/flows')).FLOW_MESSAGES.nameUndefined);
      await call('DELETE', `/api/flows/${encodeURIComponent(String(target.id))}`);
    },
    stats: (id) => call('GET', `${flow(id)}stats/`),
    versions: (id) => call('GET', `${flow(id)}versions/`),
    version: (id, versionId) => call('GET', `${flow(id)}versions/${encodeURIComponent(String(versionId))}/`),
    restore: (id, versionId) => call('POST', `${flow(id)}versions/${encodeURIComponent(String(versionId))}/restore/`),
    testChat: (id, body) => http.post<FlowTestChatResponse>(`/api/flows/${encodeURIComponent(String(id))}/test-chat/`, body),
  };
}

export const flowServiceApiFactory = createApiFactory({
  api: flowServiceApiRef,
  deps: { http: httpApiRef, bots: botServiceApiRef, config: configApiRef, session: sessionApiRef },
  factory: ({ http, bots, config, session }) => createFlowService({ http, bots, config, session }),
});
