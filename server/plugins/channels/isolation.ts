/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's WhatsApp channels are its data: A's calls name B's channel, number and company.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const channelsIsolation: IsolationArea = {
  name: 'channels',
  routes: {
    'GET /api/channels/': { allowed: [200] },
    'POST /api/channels/facebook_pages/': { body: () => ({ access_token: 'user-token-of-a' }), allowed: [200, 400, 502, 503] },
    // B's page id with A's (invalid) user token: must not move B's channel.
    'POST /api/channels/': { body: (w) => ({ platform: 'messenger', access_token: 'user-token-of-a', page_id: w.B.whatsappPhoneId }), allowed: [400, 409, 502, 503] },
    'DELETE /api/channels/:id/': { params: (w) => ({ id: w.B.whatsappChannelId }) },
    // B's number and B's company id in A's signup: B's channel must stay B's.
    'POST /api/wa-onboard/embedded_signup/': {
      body: (w) => ({ phone_number_id: w.B.whatsappPhoneId, waba_id: 'waba-B', code: 'code-of-a', company: w.B.id, email: w.A.admin.email }),
      allowed: [200, 201, 202, 400, 409, 502, 503],
    },
    'POST /api/wa-onboard/retry/': { body: (w) => ({ external_id: w.B.whatsappPhoneId }), allowed: [400, 409] },
    'GET /api/wa-onboard/signup_status/': { query: (w) => ({ external_id: w.B.whatsappPhoneId }) },
  },
};
