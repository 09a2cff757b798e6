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
import { DEMO_TEMPLATES } from '../../../contract/demoTemplates';
import { channels, companies } from '../../core/db/schema';
import { FAKE_META_PREFIX } from '../../providers/meta/fake/mountFakes';
import { channelSecretBoxRef } from '../channels';
import { templateService } from './index';

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
