import { useEffect, useRef, useState } from 'react';
import { realtimeApiRef, useAccount, useApi } from '../../../core';
import type { WhatsAppTemplate } from '../../../../contract/templates';

/** The server's event on `page:{channelId}` when a template's status or quality changes (server/plugins/templates). */
export const TEMPLATE_STATUS_EVENT = 'template_status';

/**
 * Live review status and quality of a channel's templates: joins the channel's `page:{id}` topic
 * on the company's socket and calls `onChange` with the template as the server now has it (status
 * DELETED when Meta deleted it). Left and disconnected when the channel or the company changes.
 *
 * Returns how many times the topic was joined (the first join and every rejoin after the socket came back): a
 * change made between the page's read and the join, or while the socket was away, is sent to nobody, so a page
 * reads again when this number moves (an end-to-end run lost a template's approval that way: it stayed "Pending").
 */
export function useTemplateEvents(channelId: number | null | undefined, onChange: (template: WhatsAppTemplate) => void): number {
  const realtime = useApi(realtimeApiRef);
  const { companyId } = useAccount();
  const handler = useRef(onChange);
  handler.current = onChange;
  const [joins, setJoins] = useState(0);

  useEffect(() => {
    if (!channelId || !companyId) return;
    const socket = realtime.createSocket();
    socket.connect();
    const channel = socket.channel(`page:${channelId}`, {});
    channel.on(TEMPLATE_STATUS_EVENT, (payload: unknown) => {
      if (payload && typeof payload === 'object' && 'id' in payload) handler.current(payload as WhatsAppTemplate);
    });
    // phoenix.js sends the same join again on every rejoin: its 'ok' hook runs each time.
    channel.join().receive('ok', () => setJoins((n) => n + 1));
    return () => {
      channel.leave();
      socket.disconnect();
    };
  }, [realtime, channelId, companyId]);
  return joins;
}
