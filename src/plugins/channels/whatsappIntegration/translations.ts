/**
 * Strings of the WhatsApp onboarding (/whatsapp-integration/*), keyed `whatsappIntegration.*`
 * (a top-level key of its own: the plugin merges translation files per locale, shallowly).
 * Spec strings are verbatim in English ('Facebook login was closed').
 */
export const whatsappIntegrationTranslations = {
  en: {
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
  },
  fr: {
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
  },
};
