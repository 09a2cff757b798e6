import { useEffect, useRef } from 'react';
import { realtimeApiRef, useAccount, useApi } from '../../../core';
import type { WhatsAppTemplate } from '../../../../contract/templates';

/** The server's event on `page:{channelId}` when a template's status or quality changes (server/plugins/templates). */
export const TEMPLATE_STATUS_EVENT = 'template_status';

/**
 * Live review status and quality of a channel's templates: joins the channel's `page:{id}` topic
 * on the company's socket and calls `onChange` with the template as the server now has it (status
 * DELETED when Meta deleted it). Left and disconnected when the channel or the company changes.
 */
export function useTemplateEvents(channelId: number | null | undefined, onChange: (template: WhatsAppTemplate) => void): void {
  const realtime = useApi(realtimeApiRef);
  const { companyId } = useAccount();
  const handler = useRef(onChange);
  handler.current = onChange;

  useEffect(() => {
    if (!channelId || !companyId) return;
    const socket = realtime.createSocket();
    socket.connect();
    const channel = socket.channel(`page:${channelId}`, {});
    channel.on(TEMPLATE_STATUS_EVENT, (payload: unknown) => {
      if (payload && typeof payload === 'object' && 'id' in payload) handler.current(payload as WhatsAppTemplate);
    });
    channel.join();
    return () => {
      channel.leave();
      socket.disconnect();
    };
  }, [realtime, channelId, companyId]);
}
