/**
 * Strings of the /channels page, keyed `channels.*`. Spec strings are verbatim in English
 * ('Facebook login was closed'). The WhatsApp onboarding keeps its own file
 * (./whatsappIntegration/translations), merged by the plugin.
 */
export const translations = {
  en: {
    channels: {
      menu: 'Channels',
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
      defaultFlow: {
        label: 'Default flow',
        none: 'None',
        help: 'Starts on every new conversation (keywords still start their own flow).',
        saved: 'Default flow saved',
        error: 'Could not save the default flow (%{error})',
      },
    },
  },
  fr: {
    channels: {
      menu: 'Canaux',
      title: 'Canaux',
      subtitle: 'Les numéros WhatsApp, pages Facebook et comptes Instagram par lesquels votre entreprise échange avec ses clients.',
      loading: 'Chargement des canaux…',
      platforms: {
        whatsapp: 'WhatsApp',
        messenger: 'Facebook Messenger',
        instagram: 'Instagram',
        sandbox: 'Bac à sable',
      },
      identifier: {
        page: 'Page n° %{id}',
        account: 'Compte n° %{id}',
        sandbox: 'Testez vos bots comme le ferait un client',
      },
      status: {
        label: 'État',
        connected: 'Connecté',
        setting_up: 'Configuration en cours',
        needs_attention: 'Action requise',
        failed: 'Échec',
        disconnected: 'Déconnecté',
        needsAttentionHelp: 'Une partie de la configuration WhatsApp a échoué. Relancez la configuration pour la terminer.',
        failedHelp: 'La configuration WhatsApp a échoué. Connectez de nouveau le numéro.',
      },
      since: {
        connected: 'Connecté depuis le %{date}',
        added: 'Ajouté le %{date}',
      },
      connect: {
        whatsapp: 'Connecter WhatsApp',
        messenger: 'Connecter une page Facebook',
        instagram: 'Connecter un compte Instagram',
        loginClosed: 'La connexion Facebook a été fermée',
        sdkUnavailable: "Facebook n'a pas pu être chargé. Vérifiez votre connexion ou votre bloqueur de contenu, puis réessayez.",
        notConfigured: 'Facebook, Messenger et Instagram ne sont pas configurés sur ce serveur. Demandez à votre administrateur.',
        success: 'Canal connecté',
      },
      pages: {
        titleMessenger: 'Choisissez une page Facebook',
        titleInstagram: 'Choisissez un compte Instagram',
        helpMessenger: 'Les clients qui écrivent à cette page sur Messenger apparaîtront dans vos conversations.',
        helpInstagram: 'Seules les pages liées à un compte Instagram professionnel sont proposées.',
        noneMessenger: "Ce compte Facebook ne gère aucune page. Créez une page sur Facebook, puis réessayez.",
        noneInstagram: "Aucune de vos pages Facebook n'est liée à un compte Instagram professionnel.",
        alreadyConnected: 'Déjà connecté',
        instagramOf: 'Lié à la page %{page}',
        connect: 'Connecter',
        cancel: 'Annuler',
      },
      banner: {
        manage: 'Connectez un numéro WhatsApp ou une page Facebook pour commencer à échanger avec vos clients.',
        readOnly: "Aucun canal n'est encore connecté. Demandez à un administrateur de votre entreprise d'en connecter un.",
      },
      disconnect: {
        action: 'Déconnecter %{name}',
        title: 'Déconnecter le canal',
        message:
          "Déconnecter %{name} ? Les nouveaux messages qui lui sont envoyés n'arriveront plus dans vos conversations et vous ne pourrez plus y répondre par ce canal. Ses conversations sont conservées.",
        confirm: 'Déconnecter',
        cancel: 'Annuler',
        success: 'Canal déconnecté',
      },
      retry: {
        action: 'Relancer la configuration',
        completed: 'Configuration WhatsApp terminée',
        stillFailing: 'La configuration est toujours incomplète : %{error}',
        started: 'La configuration est relancée',
      },
      simulator: 'Ouvrir le simulateur client',
      defaultFlow: {
        label: 'Parcours par défaut',
        none: 'Aucun',
        help: 'Démarre à chaque nouvelle conversation (les mots-clés lancent toujours leur propre parcours).',
        saved: 'Parcours par défaut enregistré',
        error: "Le parcours par défaut n'a pas pu être enregistré (%{error})",
      },
    },
  },
};
