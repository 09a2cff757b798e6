import { describe, expect, it } from 'vitest';
import { parseTemplateWebhook } from './webhooks';

const envelope = (field: string, value: Record<string, unknown>, time: unknown = 1795470000) => ({
  object: 'whatsapp_business_account',
  entry: [{ id: 'waba-1', time, changes: [{ field, value }] }],
});

describe('parseTemplateWebhook (Meta’s message_template_* fields)', () => {
  it('reads a status update with its reason and other_info, at the entry’s time', () => {
    const events = parseTemplateWebhook(
      envelope('message_template_status_update', {
        event: 'REJECTED',
        message_template_id: 1234567,
        message_template_name: 'spring_sale',
        message_template_language: 'en_US',
        reason: 'INVALID_FORMAT',
        other_info: { title: 'Invalid format', description: 'Variables are next to each other.' },
      }),
    );
    expect(events).toEqual([
      {
        kind: 'template_status',
        wabaId: 'waba-1',
        templateId: '1234567',
        name: 'spring_sale',
        language: 'en_US',
        status: 'REJECTED',
        reason: 'INVALID_FORMAT: Invalid format: Variables are next to each other.',
        at: new Date(1795470000 * 1000).toISOString(),
      },
    ]);
  });

  it('an approval has no reason (Meta sends NONE)', () => {
    const [event] = parseTemplateWebhook(envelope('message_template_status_update', { event: 'APPROVED', message_template_id: 1, reason: 'NONE' }));
    expect(event).toMatchObject({ kind: 'template_status', status: 'APPROVED', reason: null });
  });

  it('reads a quality update', () => {
    const [event] = parseTemplateWebhook(
      envelope('message_template_quality_update', { previous_quality_score: 'GREEN', new_quality_score: 'RED', message_template_id: 9, message_template_name: 'x', message_template_language: 'fr' }),
    );
    expect(event).toMatchObject({ kind: 'template_quality', templateId: '9', quality: 'RED', previous: 'GREEN', language: 'fr' });
  });

  it('ignores other fields, other objects and malformed values without throwing', () => {
    expect(parseTemplateWebhook(envelope('messages', { statuses: [] }))).toEqual([]);
    expect(parseTemplateWebhook({ object: 'page', entry: [] })).toEqual([]);
    expect(parseTemplateWebhook(envelope('message_template_status_update', { message_template_id: 1 }))).toEqual([]);
    expect(parseTemplateWebhook(null)).toEqual([]);
    expect(parseTemplateWebhook({ object: 'whatsapp_business_account', entry: 'nope' })).toEqual([]);
  });
});
