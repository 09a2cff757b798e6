/** Channel rows → the contract's shapes (contract/channels.ts). Tokens, PINs and codes never leave the server. */
import { isChannelConnected, SIGNUP_STEPS, type Channel, type ChannelStatus, type SignupStatusResponse, type SignupStep } from '../../../contract/channels';
import type { ChannelRow } from '../chats';

export type { ChannelRow };

/** Every step pending: a fresh signup. */
export function pendingSteps(): SignupStep[] {
  return SIGNUP_STEPS.map((name) => ({ name, status: 'pending', error: null, at: null }));
}

/** The row's steps in SIGNUP_STEPS order (missing ones pending). */
export function stepsOf(row: Pick<ChannelRow, 'signupSteps'>): SignupStep[] {
  const stored = new Map((row.signupSteps ?? []).map((s) => [s.name, s]));
  return SIGNUP_STEPS.map((name) => {
    const s = stored.get(name);
    return s ? { name, status: s.status, error: s.error ?? null, at: s.at ?? null } : { name, status: 'pending', error: null, at: null };
  });
}

export function toChannel(row: ChannelRow): Channel {
  const whatsapp = row.platform === 'whatsapp';
  const view = {
    platform: row.platform,
    status: row.status as ChannelStatus,
    signup_status: whatsapp ? (row.signupStatus ?? null) : null,
  };
  return {
    id: row.id,
    external_id: row.externalId,
    platform: row.platform,
    name: row.name,
    status: view.status,
    display_phone_number: whatsapp ? row.displayPhoneNumber : null,
    waba_id: whatsapp ? row.wabaId : null,
    signup_status: view.signup_status,
    signup_error: whatsapp ? row.signupError : null,
    steps: whatsapp && row.signupStatus ? stepsOf(row) : [],
    connected: isChannelConnected(view),
    simulator_url: row.platform === 'sandbox' && row.simulatorKey ? `/sandbox/${row.simulatorKey}` : null,
    created_at: row.createdAt.toISOString(),
  };
}

export function toSignupStatus(row: ChannelRow, alreadyConnected = false): SignupStatusResponse {
  return {
    status: row.signupStatus ?? 'in_progress',
    external_id: row.externalId,
    channel_id: row.id,
    steps: stepsOf(row),
    error: row.signupError,
    already_connected: alreadyConnected,
  };
}
