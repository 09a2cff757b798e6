/** The WhatsApp onboarding's English strings (./translations.ts), loaded with the channels plugin's pages in English. */
const en = {
  whatsappIntegration: {
    title: 'Connect WhatsApp',
    stepper: {
      label: 'WhatsApp connection steps',
      prepare: 'Prepare',
      connect: 'Connect with Facebook',
      done: 'Done',
    },
    intro: {
      title: 'Connect your WhatsApp number',
      subtitle: 'Link a WhatsApp Business number to %{company} in a few minutes, through Facebook.',
      needsTitle: 'Before you start, make sure you have:',
      needs: {
        facebook: 'A Facebook account with admin access to your business (in Meta Business Manager).',
        phone: 'A phone number that can receive an SMS or a voice call, to verify it.',
        notInUse: 'That number must not be in use on the WhatsApp app (WhatsApp or WhatsApp Business). Delete its WhatsApp account on the phone first.',
      },
      getStarted: 'Get started',
      backToChannels: 'Back to channels',
    },
    start: {
      title: 'Continue with Facebook',
      subtitle:
        'A Facebook window opens. Choose or create your business, your WhatsApp Business account and the phone number, then verify the number with the code you receive.',
      continue: 'Continue with Facebook',
      waitingForFacebook: 'Finish the steps in the Facebook window…',
      submitting: 'Sending your number to the console…',
      provisioning: 'Setting up your WhatsApp number. This can take a minute.',
      back: 'Back',
      facebookClosed: 'Facebook login was closed',
      notConfigured: {
        title: 'WhatsApp is not configured on this server',
        message: 'This console has no Meta app configured, so no WhatsApp number can be connected. Ask your administrator.',
      },
      sdkUnavailable: {
        title: 'Facebook could not be loaded',
        message: 'You may be offline, or a browser extension, firewall or network may be blocking Facebook. Check your connection and try again.',
        retry: 'Retry',
      },
      failed: {
        title: 'Your WhatsApp number could not be connected',
        unknown: 'Something went wrong while connecting your number.',
        retry: 'Try again',
      },
      noPhoneNumber: 'No phone number was chosen in the Facebook window. Add a phone number to your WhatsApp Business account and try again.',
    },
    steps: {
      title: 'Setup progress',
      exchange_code: 'Authorising the console with Facebook',
      phone_number: 'Reading your phone number',
      register_phone: 'Registering the number on WhatsApp',
      subscribe_webhooks: 'Subscribing to incoming messages',
      status: {
        pending: 'Waiting',
        running: 'In progress',
        done: 'Done',
        failed: 'Failed',
      },
    },
    success: {
      title: 'Your WhatsApp number is connected',
      number: 'Number: %{number}',
      message: 'Customers can now write to you on WhatsApp; their conversations appear in Chats.',
      partial: 'The number is connected, but one setup step failed: %{step}.',
      partialHelp: 'Messages may not arrive until this step succeeds. Retry it now or later from this page.',
      retry: 'Retry setup',
      retrying: 'Retrying the setup…',
      retryFailed: 'The setup could not be retried: %{error}',
      openChats: 'Open chats',
      goToChannels: 'Go to channels',
    },
    askAdmin: {
      title: 'An admin connects WhatsApp',
      message: 'Only members who can manage channels connect numbers. Ask an admin of %{company} to connect WhatsApp.',
      admins_one: 'Admin: %{names}',
      admins_other: 'Admins: %{names}',
    },
    state: {
      checkingTitle: 'Connect WhatsApp',
      checking: 'Checking your WhatsApp connection…',
      notConnectedTitle: 'No WhatsApp number is connected yet',
      notConnected: '%{company} has no connected WhatsApp number: the connection was not started, or not finished.',
      connect: 'Connect WhatsApp',
      settingUpTitle: 'Setting up your WhatsApp number',
    },
    alreadyConnected: {
      title: 'This WhatsApp number is already connected',
      message: 'The number you chose is already connected, to this company or to another company of the console. A WhatsApp number can be connected to only one company at a time.',
      whatToDo: 'What you can do:',
      thisCompany: 'If it is connected to this company, you will find it on the Channels page: nothing else to do.',
      otherCompany: 'If it belongs to another company, ask an admin of that company to disconnect it first, or connect a different number.',
      goToChannels: 'Go to channels',
    },
  },
};

export default en;
