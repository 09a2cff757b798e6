/** The account plugin's English strings (./translations.ts), loaded with its pages when the console is in English. */
const en = {
  account: {
    title: 'Your account',
    subtitle: 'Your profile, your password and the settings of the selected company.',
    profile: {
      title: 'Profile',
      name: 'Name',
      email: 'Email',
    },
    password: {
      title: 'Change password',
      subtitle: 'Other sessions are signed out when you change your password.',
      old: 'Current password',
      new: 'New password',
      confirm: 'Confirm new password',
      submit: 'Change password',
      success: 'Password successful changed',
      failed: 'Password update failed',
      mismatch: 'Passwords do not match',
    },
    company: {
      title: 'Company settings',
      name: 'Company name',
      save: 'Save changes',
      saved: 'Company settings saved',
      readOnly: 'Only members allowed to manage the account can change these settings.',
      none: 'No company selected.',
    },
    signOut: {
      title: 'Sign out',
      subtitle: 'Sign out of the console on this device.',
      action: 'Sign out',
    },
  },
};

export default en;
