/** Strings of the account plugin, keyed `account.*`. Spec strings are verbatim. */
export const translations = {
  en: {
    account: {
      menu: 'Account',
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
  },
  fr: {
    account: {
      menu: 'Compte',
      title: 'Votre compte',
      subtitle: "Votre profil, votre mot de passe et les réglages de l'entreprise sélectionnée.",
      profile: {
        title: 'Profil',
        name: 'Nom',
        email: 'E-mail',
      },
      password: {
        title: 'Changer le mot de passe',
        subtitle: 'Vos autres sessions sont déconnectées quand vous changez de mot de passe.',
        old: 'Mot de passe actuel',
        new: 'Nouveau mot de passe',
        confirm: 'Confirmer le nouveau mot de passe',
        submit: 'Changer le mot de passe',
        success: 'Mot de passe modifié',
        failed: 'La mise à jour du mot de passe a échoué',
        mismatch: 'Les mots de passe ne correspondent pas',
      },
      company: {
        title: "Réglages de l'entreprise",
        name: "Nom de l'entreprise",
        save: 'Enregistrer',
        saved: "Réglages de l'entreprise enregistrés",
        readOnly: 'Seuls les membres autorisés à gérer le compte peuvent modifier ces réglages.',
        none: 'Aucune entreprise sélectionnée.',
      },
      signOut: {
        title: 'Déconnexion',
        subtitle: 'Se déconnecter de la console sur cet appareil.',
        action: 'Se déconnecter',
      },
    },
  },
};
