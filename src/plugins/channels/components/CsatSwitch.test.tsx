// @vitest-environment jsdom
import { describeChannelSettingSwitch } from '../testing/channelSettingSwitchSuite';
import { CsatSwitch } from './CsatSwitch';

describeChannelSettingSwitch({
  title: "a channel's satisfaction survey (CSAT) on the channels page",
  Switch: CsatSwitch,
  path: '/api/csat/',
  label: 'Ask for a rating when resolved',
  description: 'The customer gets one question, a rating from 1 to 5, when their conversation is resolved. Scores show on Stats.',
  onAlert: 'Satisfaction survey turned on',
  refusedAlert: 'Could not save the satisfaction survey (Must be a valid boolean.)',
});
