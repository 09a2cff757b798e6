// @vitest-environment jsdom
import { describeChannelSettingSwitch } from '../testing/channelSettingSwitchSuite';
import { AutoAssignSwitch } from './AutoAssignSwitch';

describeChannelSettingSwitch({
  title: "a channel's auto-assignment on the channels page",
  Switch: AutoAssignSwitch,
  path: '/api/auto-assignment/',
  label: 'Auto-assign conversations',
  description: 'New and re-opened conversations go in turn to members who have this inbox open and are under their capacity.',
  onAlert: 'Auto-assignment turned on',
  refusedAlert: 'Could not save auto-assignment (Must be a valid boolean.)',
});
