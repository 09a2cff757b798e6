/**
 * What a template send must carry for the approved template it names (issue #10): a carousel's
 * card count is fixed once Meta approved it, so a send carries exactly as many cards; a media
 * header needs its file (the message's media_url) of the header's kind. Checked against our synced
 * copy before anything reaches Meta; a template we do not know is left for Meta to judge.
 */
import { and, eq } from 'drizzle-orm';
import type { TemplateSendPayload } from '../../../contract/chats';
import { carouselCardCount, variablesIn, type TemplateComponent } from '../../../contract/templates';
import type { Database } from '../../core/db/client';
import { channels, whatsappTemplates } from '../../core/db/schema';

/** The refusal's message (field `template`), or null when the send fits the template. */
export function templateSendProblem(components: readonly TemplateComponent[], template: Pick<TemplateSendPayload, 'header' | 'cards' | 'buttons'>, mediaUrl: string | null | undefined): string | null {
  const buttons = components.find((c) => c.type === 'BUTTONS');
  for (const [index, button] of (buttons && buttons.type === 'BUTTONS' ? buttons.buttons : []).entries()) {
    const needs = button.type === 'COPY_CODE' ? 'copy_code' : button.type === 'URL' && variablesIn(button.url).length > 0 ? 'url' : null;
    if (needs && !template.buttons?.some((b) => b.index === index && b.sub_type === needs)) {
      return needs === 'url' ? `The button "${'text' in button ? button.text : ''}" needs the end of its link ({{1}}).` : 'The copy code button needs its offer code.';
    }
  }
  const cards = carouselCardCount(components);
  const sent = template.cards?.length ?? 0;
  if (cards !== null && sent !== cards) return `This carousel template has ${cards} cards: send exactly ${cards} cards (${sent} given).`;
  if (cards === null && sent > 0) return 'This template is not a carousel: send it without cards.';
  const header = components.find((c) => c.type === 'HEADER');
  const format = header && header.type === 'HEADER' ? header.format : null;
  if (format === 'IMAGE' || format === 'VIDEO' || format === 'DOCUMENT') {
    const kind = format.toLowerCase();
    if (template.header?.type !== kind || !mediaUrl) return `This template has ${kind === 'image' ? 'an' : 'a'} ${kind} header: attach its ${kind}.`;
    return null;
  }
  const headerVariable = format === 'TEXT' && header?.type === 'HEADER' && variablesIn(header.text ?? '').length > 0;
  if (headerVariable && (template.header?.type !== 'text' || !template.header.text)) return 'This template’s header has a variable {{1}}: give its value.';
  if (!headerVariable && template.header) return 'This template’s header takes no file or value.';
  return null;
}

/** The company's synced copy of the template on the room's channel's WhatsApp account, checked as above. */
export async function checkTemplateSend(
  db: Database,
  room: { companyId: number; channelId: number },
  template: TemplateSendPayload,
  mediaUrl: string | null | undefined,
): Promise<string | null> {
  const [channel] = await db.select({ wabaId: channels.wabaId }).from(channels).where(and(eq(channels.id, room.channelId), eq(channels.companyId, room.companyId)));
  if (!channel?.wabaId) return null;
  const [stored] = await db
    .select({ components: whatsappTemplates.components })
    .from(whatsappTemplates)
    .where(
      and(
        eq(whatsappTemplates.companyId, room.companyId),
        eq(whatsappTemplates.wabaId, channel.wabaId),
        eq(whatsappTemplates.name, template.name),
        eq(whatsappTemplates.language, template.language),
      ),
    );
  if (!stored) return null;
  return templateSendProblem(stored.components as TemplateComponent[], template, mediaUrl);
}
