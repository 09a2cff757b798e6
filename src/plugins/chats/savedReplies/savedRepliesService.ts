/**
 * The company's agent templates ("saved replies", spec §3, §7 /api/agent-templates/) for the composer:
 * a small store loaded when the chats page starts and reloaded when the selected company changes
 * (spec §4); emptied on sign-out. Changes made through it update the store at once.
 */
import type { MAX_PAGE_SIZE } from '../../../../contract/team';
import { ALL_PAGE_SIZE } from '../../../core/data/dataProvider';

/** The server's page cap (contract/team, not imported as a value: its zod schemas would join the shell's chunk). */
const PAGE_SIZE: typeof MAX_PAGE_SIZE = ALL_PAGE_SIZE;
import type { AgentTemplate, AgentTemplateBody } from '../../../../contract/agentTemplates';
import type { Paged } from '../../../../contract/api';
import type { AccountStore, HttpProvider } from '../../../core/apis';

export const AGENT_TEMPLATES_PATH = '/api/agent-templates/';

export interface SavedRepliesState {
  templates: AgentTemplate[];
  /** The company the templates belong to (null before the first load). */
  companyId: number | null;
  loading: boolean;
  loaded: boolean;
  /** The last load failed. */
  failed: boolean;
}

export interface SavedRepliesService {
  getState(): SavedRepliesState;
  subscribe(listener: () => void): () => void;
  /** Loads the selected company's templates unless already loaded (the chats page calls it on start). */
  start(): Promise<void>;
  reload(): Promise<void>;
  create(body: AgentTemplateBody): Promise<AgentTemplate>;
  update(id: number, body: AgentTemplateBody): Promise<AgentTemplate>;
  remove(id: number): Promise<void>;
}

const EMPTY: SavedRepliesState = { templates: [], companyId: null, loading: false, loaded: false, failed: false };

/** Name order, case-insensitive (as the server lists them). */
export function sortTemplates(list: AgentTemplate[]): AgentTemplate[] {
  return [...list].sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.id - b.id);
}

export function createSavedRepliesService(deps: { http: HttpProvider; account: AccountStore }): SavedRepliesService {
  let state = EMPTY;
  let started = false;
  let seq = 0;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<SavedRepliesState>) => {
    state = { ...state, ...patch };
    listeners.forEach((l) => l());
  };

  async function load(): Promise<void> {
    const companyId = deps.account.getCompanyId();
    const mine = ++seq;
    if (companyId == null) {
      set({ ...EMPTY });
      return;
    }
    // Another company's templates never show while the new ones load.
    set({ loading: true, failed: false, ...(state.companyId !== companyId ? { templates: [], loaded: false, companyId } : {}) });
    try {
      const resp = await deps.http.get<Paged<AgentTemplate>>(AGENT_TEMPLATES_PATH, { query: { page_size: PAGE_SIZE } });
      if (mine !== seq) return;
      set({ templates: sortTemplates(resp?.results ?? []), companyId, loading: false, loaded: true, failed: false });
    } catch {
      if (mine !== seq) return;
      set({ loading: false, failed: true });
    }
  }

  const service: SavedRepliesService = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      started = true;
      const companyId = deps.account.getCompanyId();
      if (state.companyId === companyId && (state.loaded || state.loading)) return;
      await load();
    },
    reload: load,
    async create(body) {
      const created = await deps.http.post<AgentTemplate>(AGENT_TEMPLATES_PATH, body);
      set({ templates: sortTemplates([...state.templates.filter((x) => x.id !== created.id), created]) });
      return created;
    },
    async update(id, body) {
      const updated = await deps.http.put<AgentTemplate>(`${AGENT_TEMPLATES_PATH}${id}`, body);
      set({ templates: sortTemplates(state.templates.map((x) => (x.id === id ? updated : x))) });
      return updated;
    },
    async remove(id) {
      await deps.http.delete(`${AGENT_TEMPLATES_PATH}${id}`);
      set({ templates: state.templates.filter((x) => x.id !== id) });
    },
  };

  // Spec §4: selecting a company reloads agent templates; sign-out forgets them.
  deps.account.subscribe((event) => {
    if (event === 'companyChanged') {
      seq += 1;
      set({ ...EMPTY });
      if (started) void load();
    } else if (event === 'signedOut') {
      seq += 1;
      started = false;
      set({ ...EMPTY });
    }
  });

  return service;
}
