/**
 * The outbound side of the Meta channels (ChannelProvider of server/plugins/chats): WhatsApp Cloud
 * API for 'whatsapp', the Send API of the page for 'messenger' and 'instagram'. Rate limits and
 * outages surface as retryable GraphApiErrors: the chat service keeps the message pending and tries again.
 */
import { eq } from 'drizzle-orm';
import type { Message } from '../../../contract/chats';
import { channels } from '../../core/db/schema';
import type { OutboundContent } from '../../providers/meta/types';
import { choicesContentOf } from '../../providers/meta/interactive';
import type { ChannelProvider, RoomRecord } from '../chats';
import { pageIdOf, type ChannelDeps, type ChannelService } from './service';

const MEDIA_TYPES = ['image', 'video', 'audio', 'document'] as const;
type MediaKind = (typeof MEDIA_TYPES)[number];

/** media_url may be relative to this server (/media/…): Meta fetches it from the public URL. */
export function absoluteUrl(url: string, publicUrl: string): string {
  if (/^https?:\/\//i.test(url)) return url;
  return `${publicUrl.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`;
}

function mediaKindOf(message: Message): MediaKind | null {
  if ((MEDIA_TYPES as readonly string[]).includes(message.type)) return message.type as MediaKind;
  if (!message.media_url) return null;
  const mime = (message.media_type ?? '').toLowerCase();
  if (mime.startsWith('image')) return 'image';
  if (mime.startsWith('video')) return 'video';
  if (mime.startsWith('audio')) return 'audio';
  return 'document';
}

function fileNameOf(url: string): string | undefined {
  try {
    const name = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
    return name || undefined;
  } catch {
    return undefined;
  }
}

/** A stored message → what the Graph API sends. */
export function outboundContent(message: Message, publicUrl: string): OutboundContent {
  if (message.type === 'template') {
    const template = (message.data?.template ?? null) as { name?: unknown; language?: unknown; parameters?: unknown; header?: { type?: unknown; text?: unknown }; cards?: unknown } | null;
    if (!template || typeof template.name !== 'string' || typeof template.language !== 'string') throw new Error('The template message has no template.');
    const parameters = Array.isArray(template.parameters) ? template.parameters.map(String) : [];
    const headerType = template.header?.type;
    const header =
      (headerType === 'image' || headerType === 'video' || headerType === 'document') && message.media_url
        ? { type: headerType as 'image' | 'video' | 'document', link: absoluteUrl(message.media_url, publicUrl) }
        : headerType === 'text' && typeof template.header?.text === 'string'
          ? { type: 'text' as const, text: template.header.text }
          : undefined;
    const cards = Array.isArray(template.cards)
      ? (template.cards as { type?: string; link?: string; parameters?: unknown }[]).map((card) => ({
          type: card.type === 'video' ? ('video' as const) : ('image' as const),
          link: String(card.link ?? ''),
          bodyParameters: Array.isArray(card.parameters) ? card.parameters.map(String) : [],
        }))
      : undefined;
    const buttons = Array.isArray((template as { buttons?: unknown }).buttons)
      ? ((template as { buttons: { index?: unknown; sub_type?: unknown; value?: unknown }[] }).buttons).map((b) => ({
          index: Number(b.index),
          subType: b.sub_type === 'copy_code' ? ('copy_code' as const) : ('url' as const),
          value: String(b.value ?? ''),
        }))
      : undefined;
    return {
      kind: 'template',
      name: template.name,
      language: template.language,
      bodyParameters: parameters,
      ...(header ? { header } : {}),
      ...(cards ? { cards } : {}),
      ...(buttons?.length ? { buttons } : {}),
    };
  }
  const kind = mediaKindOf(message);
  if (kind && message.media_url) {
    const link = absoluteUrl(message.media_url, publicUrl);
    const caption = kind !== 'audio' && message.text?.trim() ? message.text : undefined;
    return {
      kind: 'media',
      mediaType: kind,
      link,
      ...(caption ? { caption } : {}),
      ...(kind === 'document' ? { filename: fileNameOf(link) } : {}),
    };
  }
  if (!message.text?.trim()) throw new Error('The message has neither text nor media.');
  return { kind: 'text', text: message.text, previewUrl: /https?:\/\//i.test(message.text) };
}

export class MetaChannelProvider implements ChannelProvider {
  constructor(
    private readonly deps: ChannelDeps & { publicUrl: string },
    private readonly channelsService: ChannelService,
  ) {}

  async send(room: RoomRecord, message: Message): Promise<{ external_id: string }> {
    const [channel] = await this.deps.db.select().from(channels).where(eq(channels.id, room.channelId));
    if (!channel || channel.status === 'disconnected') throw new Error('The channel is disconnected: reconnect it to send messages.');
    const token = this.channelsService.tokenOf(channel);
    if (!token) throw new Error('The channel has no access token: reconnect it to send messages.');
    const content = choicesContentOf(channel.platform, message) ?? outboundContent(message, this.deps.publicUrl);
    const graph = this.deps.graph();
    const { messageId } =
      channel.platform === 'whatsapp'
        ? await graph.sendWhatsApp(channel.externalId, token, room.externalId, content)
        : await graph.sendMessenger(pageIdOf(channel), token, room.externalId, content, channel.platform === 'instagram' ? 'instagram' : 'messenger');
    return { external_id: messageId };
  }
}
