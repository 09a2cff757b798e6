/**
 * A connected channel's customer-satisfaction survey (issue #22, contract/csat.ts): when on, a customer
 * whose conversation is resolved is asked for a rating from 1 to 5 (server/plugins/chats/csat.ts), through
 * GET /api/csat/ and PUT /api/csat/{id}/ (./ChannelSettingSwitch.tsx).
 */
import { ChannelSettingSwitch } from './ChannelSettingSwitch';

export function CsatSwitch({ channelId }: { channelId: number }) {
  return <ChannelSettingSwitch channelId={channelId} path="/api/csat/" strings="channels.csat" testId="csat-switch" />;
}
