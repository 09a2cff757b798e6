/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's WhatsApp message templates are its data: A's calls name B's channel and template.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

/** A valid template (contract/templates.ts) and carousel, so a refusal is never a 400 that hides a leak. */
const TEMPLATE_BODY = { name: 'taken_over', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Taken over by A' }] };
const CARD = {
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::sample'] } },
    { type: 'BODY', text: 'A card' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Buy' }] },
  ],
};
const CAROUSEL_BODY = (phone: string) => ({
  name: 'carousel_by_a',
  language: 'en_US',
  category: 'MARKETING',
  phone_number: phone,
  components: [{ type: 'BODY', text: 'Our picks' }, { type: 'CAROUSEL', cards: [CARD, CARD] }],
});

export const templatesIsolation: IsolationArea = {
  name: 'templates',
  routes: {
    'GET /api/channels/:id/templates/': { params: (w) => ({ id: w.B.whatsappChannelId }) },
    'POST /api/channels/:id/create_template/': { params: (w) => ({ id: w.B.whatsappChannelId }), body: () => TEMPLATE_BODY },
    // B's number: A has no channel with it (a field error), and B's account gets nothing.
    'POST /api/whatsapp-template/submit_carousel_template/': { body: (w) => CAROUSEL_BODY(w.B.whatsappPhoneId), allowed: [400] },
    'PATCH /api/channels/:id/templates/:templateId/': {
      params: (w) => ({ id: w.B.whatsappChannelId, templateId: w.B.whatsappTemplateId }),
      body: () => ({ category: TEMPLATE_BODY.category, components: TEMPLATE_BODY.components }),
    },
    'DELETE /api/channels/:id/templates/:templateId/': { params: (w) => ({ id: w.B.whatsappChannelId, templateId: w.B.whatsappTemplateId }) },
    'GET /api/channels/:id/templates/:templateId/history/': { params: (w) => ({ id: w.B.whatsappChannelId, templateId: w.B.whatsappTemplateId }) },
    'GET /api/pages/:pageId/templates/:templateId/stats': { params: (w) => ({ pageId: w.B.whatsappChannelId, templateId: w.B.whatsappTemplateId }) },
    'POST /api/channels/:id/templates/media_handle/': { params: (w) => ({ id: w.B.whatsappChannelId }), body: () => ({ media_url: '/media/chats/1/a/b.png', format: 'IMAGE' }) },
  },
};
