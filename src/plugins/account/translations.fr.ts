/** The account plugin's French strings (./translations.ts), loaded with its pages when the console is in French. */
const fr = {
  account: {
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
};

export default fr;
