/** The WhatsApp onboarding's French strings (./translations.ts), loaded with the channels plugin's pages in French. */
const fr = {
  whatsappIntegration: {
    title: 'Connecter WhatsApp',
    stepper: {
      label: 'Étapes de connexion WhatsApp',
      prepare: 'Préparer',
      connect: 'Continuer avec Facebook',
      done: 'Terminé',
    },
    intro: {
      title: 'Connectez votre numéro WhatsApp',
      subtitle: 'Reliez un numéro WhatsApp Business à %{company} en quelques minutes, via Facebook.',
      needsTitle: 'Avant de commencer, assurez-vous d’avoir :',
      needs: {
        facebook: 'Un compte Facebook avec un accès administrateur à votre entreprise (dans Meta Business Manager).',
        phone: 'Un numéro de téléphone pouvant recevoir un SMS ou un appel vocal, pour le vérifier.',
        notInUse:
          'Ce numéro ne doit pas être utilisé dans l’application WhatsApp (WhatsApp ou WhatsApp Business). Supprimez d’abord son compte WhatsApp sur le téléphone.',
      },
      getStarted: 'Commencer',
      backToChannels: 'Retour aux canaux',
    },
    start: {
      title: 'Continuer avec Facebook',
      subtitle:
        'Une fenêtre Facebook s’ouvre. Choisissez ou créez votre entreprise, votre compte WhatsApp Business et le numéro, puis vérifiez le numéro avec le code reçu.',
      continue: 'Continuer avec Facebook',
      waitingForFacebook: 'Terminez les étapes dans la fenêtre Facebook…',
      submitting: 'Envoi de votre numéro à la console…',
      provisioning: 'Configuration de votre numéro WhatsApp. Cela peut prendre une minute.',
      back: 'Retour',
      facebookClosed: 'La connexion Facebook a été fermée',
      notConfigured: {
        title: 'WhatsApp n’est pas configuré sur ce serveur',
        message: 'Aucune application Meta n’est configurée pour cette console : aucun numéro WhatsApp ne peut être connecté. Demandez à votre administrateur.',
      },
      sdkUnavailable: {
        title: 'Facebook n’a pas pu être chargé',
        message:
          'Vous êtes peut-être hors ligne, ou une extension du navigateur, un pare-feu ou le réseau bloque Facebook. Vérifiez votre connexion et réessayez.',
        retry: 'Réessayer',
      },
      failed: {
        title: 'Votre numéro WhatsApp n’a pas pu être connecté',
        unknown: 'Une erreur est survenue lors de la connexion de votre numéro.',
        retry: 'Réessayer',
      },
      noPhoneNumber:
        'Aucun numéro n’a été choisi dans la fenêtre Facebook. Ajoutez un numéro à votre compte WhatsApp Business et réessayez.',
    },
    steps: {
      title: 'Avancement de la configuration',
      exchange_code: 'Autorisation de la console auprès de Facebook',
      phone_number: 'Lecture de votre numéro',
      register_phone: 'Enregistrement du numéro sur WhatsApp',
      subscribe_webhooks: 'Abonnement aux messages entrants',
      status: {
        pending: 'En attente',
        running: 'En cours',
        done: 'Terminé',
        failed: 'Échec',
      },
    },
    success: {
      title: 'Votre numéro WhatsApp est connecté',
      number: 'Numéro : %{number}',
      message: 'Vos clients peuvent désormais vous écrire sur WhatsApp ; leurs conversations apparaissent dans les discussions.',
      partial: 'Le numéro est connecté, mais une étape de configuration a échoué : %{step}.',
      partialHelp: 'Les messages risquent de ne pas arriver tant que cette étape n’a pas réussi. Relancez-la maintenant ou plus tard depuis cette page.',
      retry: 'Relancer la configuration',
      retrying: 'Nouvelle tentative de configuration…',
      retryFailed: 'La configuration n’a pas pu être relancée : %{error}',
      openChats: 'Ouvrir les discussions',
      goToChannels: 'Aller aux canaux',
    },
    askAdmin: {
      title: 'Un administrateur connecte WhatsApp',
      message: 'Seuls les membres autorisés à gérer les canaux connectent des numéros. Demandez à un administrateur de %{company} de connecter WhatsApp.',
      admins_one: 'Administrateur : %{names}',
      admins_other: 'Administrateurs : %{names}',
    },
    state: {
      checkingTitle: 'Connecter WhatsApp',
      checking: 'Vérification de votre connexion WhatsApp…',
      notConnectedTitle: 'Aucun numéro WhatsApp n’est encore connecté',
      notConnected: '%{company} n’a aucun numéro WhatsApp connecté : la connexion n’a pas été lancée, ou pas terminée.',
      connect: 'Connecter WhatsApp',
      settingUpTitle: 'Configuration de votre numéro WhatsApp',
    },
    alreadyConnected: {
      title: 'Ce numéro WhatsApp est déjà connecté',
      message:
        'Le numéro choisi est déjà connecté, à cette entreprise ou à une autre entreprise de la console. Un numéro WhatsApp ne peut être connecté qu’à une seule entreprise à la fois.',
      whatToDo: 'Ce que vous pouvez faire :',
      thisCompany: 'S’il est connecté à cette entreprise, vous le trouverez sur la page Canaux : rien d’autre à faire.',
      otherCompany: 'S’il appartient à une autre entreprise, demandez à un administrateur de celle-ci de le déconnecter, ou connectez un autre numéro.',
      goToChannels: 'Aller aux canaux',
    },
  },
};

export default fr;
