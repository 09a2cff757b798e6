/** Core strings (English). Spec strings are verbatim, typos included ("occured"). */
export const en = {
  core: {
    logo: {
      label: 'Company logo',
      upload: 'Upload logo',
      change: 'Change logo',
      remove: 'Remove logo',
      hint: 'Optional. An image of up to 100 KB.',
      tooLarge: 'The logo must be 100 KB or smaller.',
      notImage: 'Choose an image file.',
    },
    appName: 'Business Messaging Console',
    errors: {
      noPermission: 'You do not have permission to access this page.',
      notAuthenticated: 'Not authenticated, please login.',
      accountLoad: 'Error occured while fetching your account details.',
      generic: 'An error occurred',
    },
    chunkLoad: {
      title: 'This page could not be loaded',
      message: 'The connection may have dropped, or the console was just updated. Load it again to carry on.',
      reload: 'Reload',
    },
    notFound: {
      title: 'Page not found',
      message: "This page doesn't exist, or is no longer here. Check the address, or go back to the dashboard.",
      toDashboard: 'Go to the dashboard',
    },
    empty: {
      title: 'Nothing Found.',
      message: "There's no data at the moment, please check back in later.",
    },
    menu: {
      dashboard: 'Dashboard',
      channels: 'Channels',
      flows: 'Flows',
      chats: 'Chats',
      stats: 'Stats',
      broadcast: 'Broadcast',
      bots: 'Bots',
      team: 'Team',
      account: 'Account',
      resources: 'Resources',
      pricing: 'Pricing',
      templates: 'Templates',
      permissions: 'Permissions',
    },
    invitations: {
      waiting: 'You are invited to join %{companies}.',
      review: 'Review invitations',
      dismiss: 'Hide',
    },
    appBar: {
      switchCompany: 'Switch company',
      noCompany: 'Select a company',
      account: 'Account',
      signOut: 'Sign out',
      language: 'Language',
      toggleTheme: 'Toggle light/dark theme',
    },
    alert: {
      close: 'Close',
    },
    table: {
      all: 'All',
    },
    loading: 'Loading…',
  },
  validation: {
    required: 'This field is required',
    email: 'Enter a valid email address',
    minLength: 'Must be at least %{min} characters',
    maxLength: 'Must be %{max} characters or less',
  },
};

export type CoreMessages = typeof en;
