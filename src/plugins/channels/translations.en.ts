/** The channels page's English strings (./translations.ts), loaded with the channels plugin's pages in English. */
const en = {
  channels: {
    title: 'Channels',
    subtitle: 'The WhatsApp numbers, Facebook pages and Instagram accounts your company talks to customers through.',
    loading: 'Loading channels…',
    platforms: {
      whatsapp: 'WhatsApp',
      messenger: 'Facebook Messenger',
      instagram: 'Instagram',
      sandbox: 'Sandbox',
    },
    identifier: {
      page: 'Page ID %{id}',
      account: 'Account ID %{id}',
      sandbox: 'Test your bots as a customer would',
    },
    status: {
      label: 'Status',
      connected: 'Connected',
      setting_up: 'Setting up',
      needs_attention: 'Needs attention',
      failed: 'Failed',
      disconnected: 'Disconnected',
      needsAttentionHelp: 'Part of the WhatsApp setup failed. Retry the setup to finish it.',
      failedHelp: 'The WhatsApp setup failed. Connect the number again.',
    },
    since: {
      connected: 'Connected since %{date}',
      added: 'Added on %{date}',
    },
    connect: {
      whatsapp: 'Connect WhatsApp',
      messenger: 'Connect Facebook page',
      instagram: 'Connect Instagram account',
      loginClosed: 'Facebook login was closed',
      sdkUnavailable: 'Facebook could not be loaded. Check your connection or content blocker and try again.',
      notConfigured: 'Facebook, Messenger and Instagram are not configured on this server. Ask your administrator.',
      success: 'Channel connected',
    },
    pages: {
      titleMessenger: 'Choose a Facebook page',
      titleInstagram: 'Choose an Instagram account',
      helpMessenger: 'Customers who write to this page on Messenger will show up in your chats.',
      helpInstagram: 'Only pages linked to an Instagram professional account are listed.',
      noneMessenger: 'This Facebook account manages no page. Create a page on Facebook, then try again.',
      noneInstagram: 'None of your Facebook pages is linked to an Instagram professional account.',
      alreadyConnected: 'Already connected',
      instagramOf: 'Linked to the page %{page}',
      connect: 'Connect',
      cancel: 'Cancel',
    },
    banner: {
      manage: 'Connect a WhatsApp number or a Facebook page to start talking to your customers.',
      readOnly: 'No channel is connected yet. Ask an admin of your company to connect one.',
    },
    disconnect: {
      action: 'Disconnect %{name}',
      title: 'Disconnect channel',
      message:
        'Disconnect %{name}? New messages sent to it will no longer reach your chats and you will not be able to reply through it. Its conversations are kept.',
      confirm: 'Disconnect',
      cancel: 'Cancel',
      success: 'Channel disconnected',
    },
    retry: {
      action: 'Retry setup',
      completed: 'WhatsApp setup completed',
      stillFailing: 'The setup is still incomplete: %{error}',
      started: 'The setup is running again',
    },
    simulator: 'Open customer simulator',
    autoAssign: {
      label: 'Auto-assign conversations',
      help: 'New and re-opened conversations go in turn to members who have this inbox open and are under their capacity.',
      readOnly: 'Only members who can manage channels can change this.',
      on: 'Auto-assignment turned on',
      off: 'Auto-assignment turned off',
      error: 'Could not save auto-assignment (%{error})',
    },
    csat: {
      label: 'Ask for a rating when resolved',
      help: 'The customer gets one question, a rating from 1 to 5, when their conversation is resolved. Scores show on Stats.',
      readOnly: 'Only members who can manage channels can change this.',
      on: 'Satisfaction survey turned on',
      off: 'Satisfaction survey turned off',
      error: 'Could not save the satisfaction survey (%{error})',
    },
    defaultFlow: {
      label: 'Default flow',
      none: 'None',
      help: 'Starts on every new conversation (keywords still start their own flow).',
      saved: 'Default flow saved',
      error: 'Could not save the default flow (%{error})',
    },
  },
};

export default en;
