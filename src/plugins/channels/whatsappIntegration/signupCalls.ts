import type { Channel, EmbeddedSignupBody, SignupStatusResponse } from '../../../../contract/channels';
import { isHttpError, type HttpProvider } from '../../../core';

export const WA_ONBOARD_PATHS = {
  signup: '/api/wa-onboard/embedded_signup/',
  status: '/api/wa-onboard/signup_status/',
  retry: '/api/wa-onboard/retry/',
} as const;

/** Spec §4: completed and partial_failure both mean the number is connected. */
export function isConnectedStatus(status: Pick<SignupStatusResponse, 'status'>): boolean {
  return status.status === 'completed' || status.status === 'partial_failure';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A status answer with the fields the pages read, whatever a server left out. */
function normalize(raw: unknown, fallback: Partial<SignupStatusResponse> = {}): SignupStatusResponse {
  const body = isObject(raw) ? raw : {};
  return {
    status: (body.status as SignupStatusResponse['status']) ?? fallback.status ?? 'in_progress',
    external_id: String(body.external_id ?? fallback.external_id ?? ''),
    channel_id: Number(body.channel_id ?? fallback.channel_id ?? 0),
    steps: Array.isArray(body.steps) ? (body.steps as SignupStatusResponse['steps']) : (fallback.steps ?? []),
    error: typeof body.error === 'string' ? body.error : null,
    already_connected: body.already_connected === true,
  };
}

/**
 * POST /api/wa-onboard/embedded_signup/ (spec §7). A 409 answer means the number is already
 * connected (to this or another company): it comes back as a status with already_connected.
 */
export async function submitEmbeddedSignup(http: HttpProvider, body: EmbeddedSignupBody): Promise<SignupStatusResponse> {
  try {
    return normalize(await http.post(WA_ONBOARD_PATHS.signup, body), { external_id: body.phone_number_id });
  } catch (error) {
    if (isHttpError(error) && error.status === 409) {
      return { ...normalize(error.body, { external_id: body.phone_number_id, status: 'failed' }), already_connected: true };
    }
    throw error;
  }
}

/** GET /api/wa-onboard/signup_status/?external_id= (spec §7). */
export async function fetchSignupStatus(http: HttpProvider, externalId: string, signal?: AbortSignal): Promise<SignupStatusResponse> {
  return normalize(await http.get(WA_ONBOARD_PATHS.status, { query: { external_id: externalId }, signal }), { external_id: externalId });
}

/** POST /api/wa-onboard/retry/ {external_id}: runs a partial_failure's failed steps again. */
export async function retrySignup(http: HttpProvider, externalId: string): Promise<SignupStatusResponse> {
  return normalize(await http.post(WA_ONBOARD_PATHS.retry, { external_id: externalId }), { external_id: externalId, status: 'in_progress' });
}

/** The connected number as Meta displays it, from GET /api/channels/ (null when not found). */
export async function fetchDisplayNumber(http: HttpProvider, status: Pick<SignupStatusResponse, 'channel_id' | 'external_id'>): Promise<string | null> {
  const answer = await http.get<{ results?: Channel[] } | Channel[]>('/api/channels/');
  const list = Array.isArray(answer) ? answer : (answer?.results ?? []);
  const channel =
    list.find((c) => status.channel_id && c.id === status.channel_id) ??
    list.find((c) => c.platform === 'whatsapp' && c.external_id === status.external_id);
  return channel?.display_phone_number ?? null;
}
