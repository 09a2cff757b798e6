/**
 * The broadcasts plugin's calls (contract/broadcasts.ts routes) and its API: the live progress
 * service on the company's socket.
 */
import type { z } from 'zod';
import type {
  AudiencePreview,
  AudiencePreviewRequest,
  BroadcastCreateInput,
  BroadcastDetail,
  BroadcastRecipient,
  BroadcastReport,
  RecipientState,
} from '../../../contract/broadcasts';
import type { Channel } from '../../../contract/channels';
import type { Tag } from '../../../contract/chats';
import type { ContactAttribute } from '../../../contract/contacts';
import type { Segment } from '../../../contract/segments';
import type { WhatsAppTemplate } from '../../../contract/templates';
import { accountApiRef, ALL_PAGE_SIZE, createApiFactory, createApiRef, realtimeApiRef, type HttpProvider } from '../../core';
import { createLiveBroadcastService, type LiveBroadcastService } from './model/liveService';

export const liveBroadcastsApiRef = createApiRef<LiveBroadcastService>({ id: 'plugin.broadcasts.live' });

export const liveBroadcastsApiFactory = createApiFactory({
  api: liveBroadcastsApiRef,
  deps: { realtime: realtimeApiRef, account: accountApiRef },
  factory: ({ realtime, account }) => createLiveBroadcastService({ realtime, account }),
});

export type BroadcastAction = 'pause' | 'resume' | 'cancel' | 'retry';

const item = (id: number | string) => `/api/broadcasts/${encodeURIComponent(String(id))}/`;

export function fetchBroadcast(http: HttpProvider, id: number | string, signal?: AbortSignal) {
  return http.get<BroadcastDetail>(item(id), { signal });
}

/** POST /api/broadcasts/audience/preview/: recipients, exclusions, bad CSV rows, columns, the sample message. */
export function previewAudience(http: HttpProvider, body: z.input<typeof AudiencePreviewRequest>, signal?: AbortSignal) {
  return http.post<AudiencePreview>('/api/broadcasts/audience/preview/', body, { signal });
}

/** POST /api/broadcasts (spec §7). */
export function createBroadcast(http: HttpProvider, body: BroadcastCreateInput) {
  return http.post<BroadcastDetail>('/api/broadcasts', body);
}

/** POST /api/broadcasts/{id}/pause/ | resume/ | cancel/ | retry/ */
export function broadcastAction(http: HttpProvider, id: number, action: BroadcastAction) {
  return http.post<BroadcastDetail | { detail?: string } | null>(`${item(id)}${action}/`, {});
}

/** DELETE /api/broadcasts/{id}/ with broadcast_id (spec §7); the server cancels a running one first. */
export function deleteBroadcast(http: HttpProvider, id: number) {
  return http.delete<{ detail?: string } | null>(item(id), { body: { broadcast_id: id } });
}

/** GET /api/broadcasts/{id}/report/ → {headers, data} (spec §7). */
export function fetchReport(http: HttpProvider, id: number) {
  return http.get<BroadcastReport>(`${item(id)}report/`);
}

export interface Paged<T> {
  count: number;
  results: T[];
}

export async function fetchRecipients(
  http: HttpProvider,
  id: number,
  options: { page: number; perPage: number; status?: RecipientState | '' },
  signal?: AbortSignal,
): Promise<Paged<BroadcastRecipient>> {
  const body = await http.get<Partial<Paged<BroadcastRecipient>> | null>(`${item(id)}recipients/`, {
    query: { page: options.page, page_size: options.perPage > 0 ? options.perPage : ALL_PAGE_SIZE, status: options.status || undefined },
    signal,
  });
  const results = body?.results ?? [];
  return { results, count: body?.count ?? results.length };
}

/** The company's connected WhatsApp numbers (broadcasts are sent from one). */
export async function fetchWhatsAppChannels(http: HttpProvider, signal?: AbortSignal): Promise<Channel[]> {
  const body = await http.get<{ results?: Channel[] } | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
  return (body?.results ?? []).filter((c) => c.platform === 'whatsapp');
}

/** Every channel of the company (names for the list, the contacts filter's channels). */
export async function fetchChannels(http: HttpProvider, signal?: AbortSignal): Promise<Channel[]> {
  const body = await http.get<{ results?: Channel[] } | null>('/api/channels/', { query: { page: 1, page_size: ALL_PAGE_SIZE }, signal });
  return body?.results ?? [];
}

/** GET /api/channels/{id}/templates/?status=APPROVED: the templates a broadcast may send. */
export async function fetchApprovedTemplates(http: HttpProvider, channelId: number, signal?: AbortSignal): Promise<WhatsAppTemplate[]> {
  const body = await http.get<{ results?: WhatsAppTemplate[] } | WhatsAppTemplate[] | null>(`/api/channels/${channelId}/templates/`, {
    query: { status: 'APPROVED', page_size: 100 },
    signal,
  });
  const list = Array.isArray(body) ? body : (body?.results ?? []);
  return list.filter((t) => t.status === 'APPROVED');
}

/** GET /api/segments/ (the contacts' saved segments; 403 for a member who cannot view contacts). */
export async function fetchSegments(http: HttpProvider, signal?: AbortSignal): Promise<Segment[]> {
  return (await http.get<{ results?: Segment[] } | null>('/api/segments/', { signal }))?.results ?? [];
}

/** GET /api/contact-attributes/ (what a template variable may take from each contact). */
export async function fetchContactAttributes(http: HttpProvider, signal?: AbortSignal): Promise<ContactAttribute[]> {
  return (await http.get<{ results?: ContactAttribute[] } | null>('/api/contact-attributes/', { signal }))?.results ?? [];
}

/** GET /api/tags/ (results). */
export async function fetchTags(http: HttpProvider, signal?: AbortSignal): Promise<Tag[]> {
  const body = await http.get<{ results?: Tag[] } | Tag[] | null>('/api/tags/', { signal });
  return Array.isArray(body) ? body : (body?.results ?? []);
}
