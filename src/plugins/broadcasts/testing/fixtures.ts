import type { AudiencePreview, Broadcast } from '../../../../contract/broadcasts';
import { EMPTY_STATS } from '../../../../contract/broadcasts';
import type { WhatsAppTemplate } from '../../../../contract/templates';
import type { Channel } from '../../../../contract/channels';
import { DEMO_TEMPLATES } from '../../../../contract/demoTemplates';

export function broadcast(over: Partial<Broadcast> = {}): Broadcast {
  return {
    id: 11,
    name: 'Spring sale',
    created_at: '2026-11-20T10:00:00Z',
    page_id: 5,
    template_name: 'welcome_offer',
    template_language: 'en_US',
    template_id: 1,
    status: 'sending',
    status_reason: null,
    n_users: 4,
    stats: { ...EMPTY_STATS, queued: 4 },
    progress: 0,
    audience_type: 'csv',
    scheduled_at: null,
    time_zone: null,
    started_at: '2026-11-20T10:00:01Z',
    completed_at: null,
    paused_at: null,
    cancelled_at: null,
    created_by: 7,
    ...over,
  };
}

export const WA_CHANNEL = {
  id: 5,
  external_id: '1055501',
  platform: 'whatsapp',
  name: 'Demo WhatsApp',
  status: 'connected',
  display_phone_number: '+1 555 0100',
  waba_id: 'w1',
  signup_status: 'completed',
  signup_error: null,
  steps: [],
  connected: true,
  simulator_url: null,
  created_at: '2026-11-01T00:00:00Z',
} as unknown as Channel;

export function templates(): WhatsAppTemplate[] {
  return DEMO_TEMPLATES.filter((t) => t.name === 'welcome_offer' || t.name === 'order_shipped').map((t, i) => ({
    id: i + 1,
    channel_id: 5,
    meta_template_id: `m${i}`,
    name: t.name,
    language: t.language,
    category: t.category,
    components: t.components,
    status: 'APPROVED',
    rejected_reason: null,
    quality_score: 'GREEN',
    created_at: '2026-11-01T00:00:00Z',
    updated_at: '2026-11-01T00:00:00Z',
  })) as WhatsAppTemplate[];
}

export function preview(over: Partial<AudiencePreview> = {}): AudiencePreview {
  return {
    total: 5,
    recipients: 3,
    excluded: { opted_out: 1, blocked: 0, duplicate: 1, invalid_number: 0, over_limit: 0 },
    bad_rows: [{ row: 4, reason: 'Not a valid phone number (write it with its country code, e.g. +14155550123).', value: '12' }],
    columns: ['phone', 'name', 'discount'],
    phone_column: 'phone',
    name_column: 'name',
    sample: [{ phone: '+14155550123', name: 'Maria Silva', values: { phone: '+14155550123', name: 'Maria Silva', discount: '15%' } }],
    messaging_limit: { tier: 'TIER_250', limit: 250, used: 10, remaining: 240 },
    over_limit_warning: false,
    message: null,
    ...over,
  };
}
