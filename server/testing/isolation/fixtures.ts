/**
 * The fixture registry of the generated isolation test: for every route that needs a login (or a
 * bot key), what to send so the call reaches the handler with ANOTHER company's ids (`w.B`) in
 * its path, querystring and body. The test fails loudly, naming the route, when a route with path
 * parameters or a body has no entry here — add it in the same change as the route.
 *
 * `params`: every `:name` of the path (B's ids). Use `w.B` ids; a parameter that names nothing a
 *   company owns (a role id) may use a plain value.
 * `query` / `body`: a VALID request (so the answer is not a 400 that hides a leak), carrying B's
 *   ids wherever the request carries ids. `body` is required for routes with a body schema.
 * `allowed`: statuses besides 403/404 that are a correct refusal or a harmless answer for this
 *   route with B's ids (e.g. 400 when the service reports "not yours" as a field error; 2xx when the
 *   route acts on the caller's own data only, like creating a company).
 */
import type { TopicFixture } from './generator';
import type { World } from './world';
import { ISOLATION_AREAS } from './areaRegistry';

export interface RouteFixture {
  params?: (w: World) => Record<string, string | number>;
  query?: (w: World) => Record<string, string>;
  body?: (w: World) => unknown;
  allowed?: number[];
}

/** A 1×1 PNG as a data URL (avatars). */
const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

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

export const ROUTE_FIXTURES: Record<string, RouteFixture> = {
  // ---------- accounts (login, no company) ----------
  // B's refresh token in A's logout: must not end B's session.
  'POST /account/logout/': { body: (w) => ({ refresh: w.B.admin.refresh }), allowed: [200, 400] },
  'GET /account/user/': { allowed: [200] },
  // A wrong old password: nothing changes, and nothing of B's is involved.
  'POST /account/password/change/': { body: () => ({ old_password: 'not-the-password-1', new_password1: 'Another-Strong-Pass-42', new_password2: 'Another-Strong-Pass-42' }), allowed: [400] },
  'GET /api/invitations/': { allowed: [200] },
  'POST /api/invitations/:id/accept/': { params: (w) => ({ id: w.B.inviteForInviteeId }) },
  'POST /api/invitations/:id/decline/': { params: (w) => ({ id: w.B.inviteForInviteeId }) },

  // ---------- companies ----------
  'POST /api/companies/': { body: () => ({ name: 'Created by A' }), allowed: [201] },
  'GET /api/companies/:id/account/': { params: (w) => ({ id: w.B.id }) },
  'PATCH /api/companies/:id/': { params: (w) => ({ id: w.B.id }), body: () => ({ name: 'Renamed by A' }) },
  'GET /api/roles/': { allowed: [200] },

  // ---------- team ----------
  'GET /api/members/': { allowed: [200] },
  'PATCH /api/members/:id/': { params: (w) => ({ id: w.B.agentMembership }), body: () => ({ role_id: 'manager' }) },
  'DELETE /api/members/:id/': { params: (w) => ({ id: w.B.agentMembership }) },
  'GET /api/invites/': { allowed: [200] },
  'POST /api/invites/bulk/': { body: () => ({ invites: [{ email: 'new-person@alpha.test', role_id: 'agent' }] }), allowed: [201] },
  'DELETE /api/invites/:id/': { params: (w) => ({ id: w.B.inviteId }) },
  'GET /api/permissions/': { allowed: [200] },
  // Role ids are not a company's: A's header scopes the change to A (B's rows are checked unchanged).
  'PATCH /api/permissions/:role_id/': { params: () => ({ role_id: 'agent' }), body: () => ({ permissions: { can_view_stats: false } }), allowed: [200] },
  'POST /api/profiles/': { body: () => ({ avatar: PIXEL }), allowed: [200] },

  // ---------- chats ----------
  'GET /api/tags/': { allowed: [200] },
  'GET /api/chats/presigned_url/': { query: () => ({ file_name: 'a.png', file_type: 'image/png' }), allowed: [200] },
  'GET /api/chats/rooms/:id/messages/': { params: (w) => ({ id: w.B.roomId }), query: (w) => ({ before_id: String(w.B.messageId + 1) }) },
  'GET /api/sandbox/': { allowed: [200] },

  // ---------- agent templates ----------
  'GET /api/agent-templates/': { allowed: [200] },
  'POST /api/agent-templates/': { body: () => ({ name: 'A template', text: 'A text' }), allowed: [201] },
  'PUT /api/agent-templates/:id': { params: (w) => ({ id: w.B.agentTemplateId }), body: () => ({ name: 'Taken over', text: 'by A' }) },
  'PUT /api/agent-templates/:id/': { params: (w) => ({ id: w.B.agentTemplateId }), body: () => ({ name: 'Taken over', text: 'by A' }) },
  'DELETE /api/agent-templates/:id': { params: (w) => ({ id: w.B.agentTemplateId }) },
  'DELETE /api/agent-templates/:id/': { params: (w) => ({ id: w.B.agentTemplateId }) },

  // ---------- channels ----------
  'GET /api/channels/': { allowed: [200] },
  'POST /api/channels/facebook_pages/': { body: () => ({ access_token: 'user-token-of-a' }), allowed: [200, 400, 502, 503] },
  // B's page id with A's (invalid) user token: must not move B's channel.
  'POST /api/channels/': { body: (w) => ({ platform: 'messenger', access_token: 'user-token-of-a', page_id: w.B.whatsappPhoneId }), allowed: [400, 409, 502, 503] },
  'DELETE /api/channels/:id/': { params: (w) => ({ id: w.B.whatsappChannelId }) },

  // ---------- WhatsApp message templates ----------
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
  // B's number and B's company id in A's signup: B's channel must stay B's.
  'POST /api/wa-onboard/embedded_signup/': {
    body: (w) => ({ phone_number_id: w.B.whatsappPhoneId, waba_id: 'waba-B', code: 'code-of-a', company: w.B.id, email: w.A.admin.email }),
    allowed: [200, 201, 202, 400, 409, 502, 503],
  },
  'POST /api/wa-onboard/retry/': { body: (w) => ({ external_id: w.B.whatsappPhoneId }), allowed: [400, 409] },
  'GET /api/wa-onboard/signup_status/': { query: (w) => ({ external_id: w.B.whatsappPhoneId }) },

  // ---------- the feature plugins' own areas (server/plugins/<area>/isolation.ts) ----------
  ...Object.assign({}, ...ISOLATION_AREAS.map((area) => area.routes)),
};

/** Socket topics: B's resources under each prefix (A's socket must be refused) and A's own (refused without the permission). */
export const TOPIC_FIXTURES: Record<string, TopicFixture> = {
  room: { other: (w) => [`room:${w.B.roomId}`], own: (w) => [`room:${w.A.roomId}`] },
  page: { other: (w) => [`page:${w.B.sandboxChannelId}`, `page:${w.B.whatsappChannelId}`], own: (w) => ['page:lobby', `page:${w.A.sandboxChannelId}`] },
  ...Object.assign({}, ...ISOLATION_AREAS.map((area) => area.topics ?? {})),
};
