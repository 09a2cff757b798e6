/**
 * A connected channel's auto-assignment (issue #22): when on, a conversation that opens (or that a bot or
 * flow hands over) goes round-robin to a member who has this channel's inbox open and is under their
 * capacity (server/plugins/chats/autoAssignment.ts), through GET /api/auto-assignment/ and
 * PUT /api/auto-assignment/{id}/ (./ChannelSettingSwitch.tsx).
 */
import { ChannelSettingSwitch } from './ChannelSettingSwitch';

export function AutoAssignSwitch({ channelId }: { channelId: number }) {
  return <ChannelSettingSwitch channelId={channelId} path="/api/auto-assignment/" strings="channels.autoAssign" testId="auto-assign-switch" />;
}
