/**
 * The bot-service client (spec §7). The company's integration — {endpoint, access_key} — comes from
 * the main API's GET /api/bots/integration/; every bot-service call then goes to that endpoint with
 * `?access_key=` and nothing else (no bearer token, no Company header: the key names the company).
 * The integration is cached per company and asked again after a company switch, or once when the
 * service refuses the key (rotated meanwhile).
 */
import {
  accountApiRef,
  configApiRef,
  createApiFactory,
  createApiRef,
  httpApiRef,
  type AccountStore,
  type ConsoleConfig,
  type HttpProvider,
} from '../../../core';
import { HttpError } from '../../../core/http/HttpError';
import type {
  Bot,
  BotCreateBody,
  BotIntegration,
  BotIntegrationInfo,
  BotListResponse,
  BotStep,
  BotUpdateBody,
  BranchGraph,
  Operation,
  OperationBody,
  OperationExampleBody,
  OperationListResponse,
  StepCreateBody,
  StepDeleteBody,
  StepDeleteResponse,
  StepUpdateBody,
} from '../../../../contract/bots';
import type { TestChatBody, TestChatResponse } from '../../../../contract/botRuntime';
import type { BotDraft, BotDraftBody, BotVersionListResponse } from '../../../../contract/botDrafts';

/** The integration could not give a key (roles without flows manage access). */
export class NoBotAccessError extends Error {
  constructor() {
    super('no bot-service access key');
    this.name = 'NoBotAccessError';
  }
}

export interface BotServiceApi {
  /** GET /api/bots/integration/ (cached per company). */
  integration(options?: { refresh?: boolean }): Promise<BotIntegration>;
  /** POST /api/bots/integration/rotate/ (admins): a new key, the old one stops at once. */
  rotateKey(): Promise<BotIntegration>;
  /** GET /api/bot-integrations/ */
  integrations(): Promise<BotIntegrationInfo[]>;
  listBots(): Promise<BotListResponse>;
  createBot(body: BotCreateBody): Promise<Bot>;
  getBot(id: number, signal?: AbortSignal): Promise<Bot>;
  updateBot(id: number, body: BotUpdateBody): Promise<Bot>;
  deleteBot(id: number): Promise<void>;
  createStep(botId: number, body: StepCreateBody): Promise<BotStep>;
  updateStep(botId: number, stepId: string, body: StepUpdateBody): Promise<BotStep>;
  deleteStep(botId: number, stepId: string, body?: StepDeleteBody): Promise<StepDeleteResponse>;
  fetchBranch(botId: number): Promise<BranchGraph>;
  listOperations(): Promise<OperationListResponse>;
  createOperation(body: OperationBody): Promise<Operation>;
  generateOperation(body: OperationExampleBody): Promise<Operation>;
  /** Main API POST /api/bots/{id}/test-chat/: one turn of the private test conversation. */
  testChat(botId: number, body: TestChatBody): Promise<TestChatResponse>;
  /** Main API GET /api/bots/{id}/draft/: what the canvas builds (the live graph when nothing is being edited). */
  getDraft(botId: number): Promise<BotDraft>;
  /** Main API PUT /api/bots/{id}/draft/: the whole graph being built (never refused for what it still lacks). */
  saveDraft(botId: number, body: BotDraftBody): Promise<BotDraft>;
  /** Main API POST /api/bots/{id}/publish/: the draft goes live, or a 400 listing its problems. */
  publish(botId: number): Promise<BotDraft>;
  /** Main API GET /api/bots/{id}/versions/ (newest first). */
  versions(botId: number, page: number, pageSize: number): Promise<BotVersionListResponse>;
  /** Main API POST /api/bots/{id}/versions/{versionId}/restore/: the version comes back as the draft. */
  restoreVersion(botId: number, versionId: number): Promise<BotDraft>;
}

export const botServiceApiRef = createApiRef<BotServiceApi>({ id: 'plugin.bots.service' });

export function createBotService(deps: { http: HttpProvider; account: AccountStore; config: ConsoleConfig }): BotServiceApi {
  const { http, account, config } = deps;
  let cached: { companyId: number | null; value: Promise<BotIntegration> } | null = null;

  account.subscribe((event) => {
    if (event === 'companyChanged' || event === 'signedOut') cached = null;
  });

  function integration(options: { refresh?: boolean } = {}): Promise<BotIntegration> {
    const companyId = account.getCompanyId();
    if (!options.refresh && cached && cached.companyId === companyId) return cached.value;
    const value = http.get<BotIntegration>('/api/bots/integration/');
    cached = { companyId, value };
    value.catch(() => {
      if (cached?.value === value) cached = null;
    });
    return value;
  }

  async function call<T>(method: string, path: string, body?: unknown, query?: Record<string, string | number>, retried = false): Promise<T> {
    const { endpoint, access_key } = await integration();
    if (!access_key) throw new NoBotAccessError();
    try {
      return await http.request<T>(method, path, {
        baseUrl: (endpoint || config.botServiceUrl).replace(/\/+$/, ''),
        auth: false,
        body,
        query: { ...query, access_key },
      });
    } catch (error) {
      // a key rotated in another tab: ask for the current one once
      if (!retried && error instanceof HttpError && (error.status === 401 || error.status === 403)) {
        await integration({ refresh: true });
        return call<T>(method, path, body, query, true);
      }
      throw error;
    }
  }

  const bot = (id: number) => `/api/bots/${encodeURIComponent(String(id))}/`;
  /** The main API's bot paths (bearer + Company header): the same shape as the bot service's. */
  const mainBot = bot;
  const step = (botId: number, stepId: string) => `${bot(botId)}steps/${encodeURIComponent(stepId)}/`;

  return {
    integration,
    async rotateKey() {
      const value = await http.post<BotIntegration>('/api/bots/integration/rotate/');
      cached = { companyId: account.getCompanyId(), value: Promise.resolve(value) };
      return value;
    },
    async integrations() {
      const body = await http.get<{ results?: BotIntegrationInfo[] } | null>('/api/bot-integrations/');
      return body?.results ?? [];
    },
    listBots: () => call('GET', '/api/bots/'),
    createBot: (body) => call('POST', '/api/bots/', body),
    getBot: (id) => call('GET', bot(id)),
    updateBot: (id, body) => call('PATCH', bot(id), body),
    deleteBot: (id) => call('DELETE', bot(id)),
    createStep: (botId, body) => call('POST', `${bot(botId)}steps/`, body),
    updateStep: (botId, stepId, body) => call('PATCH', step(botId, stepId), body),
    deleteStep: (botId, stepId, body) => call('DELETE', step(botId, stepId), body),
    fetchBranch: (botId) => call('GET', '/branch/fetch/', undefined, { bot: botId }),
    listOperations: () => call('GET', '/api/operations/'),
    createOperation: (body) => call('POST', '/api/operations/', body),
    generateOperation: (body) => call('POST', '/api/operations/example/', body),
    testChat: (botId, body) => http.post<TestChatResponse>(`${mainBot(botId)}test-chat/`, body),
    getDraft: (botId) => http.get<BotDraft>(`${mainBot(botId)}draft/`),
    saveDraft: (botId, body) => http.put<BotDraft>(`${mainBot(botId)}draft/`, body),
    publish: (botId) => http.post<BotDraft>(`${mainBot(botId)}publish/`),
    versions: (botId, page, pageSize) => http.get<BotVersionListResponse>(`${mainBot(botId)}versions/`, { query: { page, page_size: pageSize } }),
    restoreVersion: (botId, versionId) => http.post<BotDraft>(`${mainBot(botId)}versions/${encodeURIComponent(String(versionId))}/restore/`),
  };
}

export const botServiceApiFactory = createApiFactory({
  api: botServiceApiRef,
  deps: { http: httpApiRef, account: accountApiRef, config: configApiRef },
  factory: ({ http, account, config }) => createBotService({ http, account, config }),
});
