/**
 * The offline demo's WhatsApp number (issue #10): in demo mode with the local fake Meta, the Demo
 * Company gets a WhatsApp number on the fake (the embedded signup's own steps: the dialog's code
 * exchanged, number read, registered, account subscribed) and a few templates, one of each kind
 * with a carousel among them, created through the real create path, so the fake reviews them
 * (approved about 2 s later, by the signed webhook) and templates, broadcasts and bots can be tried
 * at once. Runs once the server listens (the adapter calls the fake over HTTP on our own port);
 * does nothing when the company already has a WhatsApp number, and never stops the start.
 */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CarouselCard, TemplateDefinition } from '../../../contract/templates';
import { channels, companies } from '../../core/db/schema';
import { FAKE_META_PREFIX } from '../../providers/meta/fake/mountFakes';
import { channelSecretBoxRef } from '../channels';
import { templateService } from './index';

const IMAGE_HANDLE = '4::ZGVtby1pbWFnZQ==';
const card = (title: string): CarouselCard => ({
  components: [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: [IMAGE_HANDLE] } },
    { type: 'BODY', text: title },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'I want it' }, { type: 'URL', text: 'See more', url: 'https://example.com/shop' }] },
  ],
});

export const DEMO_TEMPLATES: TemplateDefinition[] = [
  {
    name: 'welcome_offer',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Welcome, {{1}}!', example: { header_text: ['Maria'] } },
      { type: 'BODY', text: 'Hi {{1}}, enjoy {{2}} off your first order with us.', example: { body_text: [['Maria', '10%']] } },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Shop now' }, { type: 'QUICK_REPLY', text: 'Not now' }] },
    ],
  },
  {
    name: 'order_shipped',
    language: 'en_US',
    category: 'UTILITY',
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: [IMAGE_HANDLE] } },
      { type: 'BODY', text: 'Good news {{1}}: order {{2}} is on its way.', example: { body_text: [['Maria', 'A-1042']] } },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track it', url: 'https://example.com/track/{{1}}', example: ['https://example.com/track/A-1042'] }, { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+15550100000' }] },
    ],
  },
  {
    name: 'spring_coupon',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'Spring is here! Use the code below at checkout.' },
      { type: 'BUTTONS', buttons: [{ type: 'COPY_CODE', example: 'SPRING15' }] },
    ],
  },
  {
    name: 'login_code',
    language: 'en_US',
    category: 'AUTHENTICATION',
    components: [
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE', text: 'Copy code' }] },
    ],
  },
  {
    name: 'new_arrivals',
    language: 'en_US',
    category: 'MARKETING',
    components: [
      { type: 'BODY', text: 'New arrivals picked for you, {{1}}.', example: { body_text: [['Maria']] } },
      { type: 'CAROUSEL', cards: [card('The linen shirt'), card('The canvas tote'), card('The summer hat')] },
    ],
  },
];

/** Seeds the Demo Company's WhatsApp number and templates (see above); logs and returns on any failure. */
export async function seedDemoWhatsApp(app: FastifyInstance, companyName: string): Promise<void> {
  try {
    const db = app.services.get('Database');
    const [company] = await db.select().from(companies).where(eq(companies.name, companyName));
    if (!company) return;
    const [existing] = await db.select({ id: channels.id }).from(channels).where(and(eq(channels.companyId, company.id), eq(channels.platform, 'whatsapp')));
    if (existing) return;

    // The embedded signup dialog's answer (the SDK double's), then the signup's own Graph calls.
    const dialog = await app.inject({ method: 'POST', url: `${FAKE_META_PREFIX}/dialog/embedded_signup`, payload: { business_name: companyName, phone_number: '+1 555 0100' } });
    if (dialog.statusCode !== 200) throw new Error(`fake Meta dialog: ${dialog.statusCode}`);
    const { code, phone_number_id: phoneNumberId, waba_id: wabaId } = dialog.json() as { code: string; phone_number_id: string; waba_id: string };
    const graph = app.services.get('MetaGraph');
    const { accessToken } = await graph.exchangeCode(code);
    const info = await graph.phoneNumber(phoneNumberId, accessToken);
    await graph.registerPhone(phoneNumberId, accessToken, '246810');
    await graph.subscribeWaba(wabaId, accessToken);
    const [channel] = await db
      .insert(channels)
      .values({
        companyId: company.id,
        platform: 'whatsapp',
        externalId: phoneNumberId,
        name: info.verified_name || info.display_phone_number,
        status: 'active',
        wabaId,
        displayPhoneNumber: info.display_phone_number,
        accessTokenEnc: app.services.get(channelSecretBoxRef).seal(accessToken),
        signupStatus: 'completed',
        settings: {},
      })
      .returning();

    const templates = templateService(app);
    for (const definition of DEMO_TEMPLATES) await templates.create(company.id, channel.id, definition);
    app.log.info({ channelId: channel.id, templates: DEMO_TEMPLATES.length }, 'demo WhatsApp number and templates seeded on the local fake Meta');
  } catch (err) {
    app.log.warn({ err }, 'demo WhatsApp number not seeded');
  }
}
