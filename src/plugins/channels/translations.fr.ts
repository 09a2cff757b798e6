/** The channels page's French strings (./translations.ts), loaded with the channels plugin's pages in French. */
const fr = {
  channels: {
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
    autoAssign: {
      label: 'Attribuer automatiquement les conversations',
      help: "Les conversations nouvelles ou rouvertes vont à tour de rôle aux membres qui ont cette boîte ouverte et n'ont pas atteint leur capacité.",
      readOnly: 'Seuls les membres qui peuvent gérer les canaux peuvent modifier ce réglage.',
      on: 'Attribution automatique activée',
      off: 'Attribution automatique désactivée',
      error: "L'attribution automatique n'a pas pu être enregistrée (%{error})",
    },
    csat: {
      label: 'Demander une note à la résolution',
      help: 'Le client reçoit une question, une note de 1 à 5, quand sa conversation est résolue. Les scores apparaissent dans Statistiques.',
      readOnly: 'Seuls les membres qui peuvent gérer les canaux peuvent modifier ce réglage.',
      on: 'Enquête de satisfaction activée',
      off: 'Enquête de satisfaction désactivée',
      error: "L'enquête de satisfaction n'a pas pu être enregistrée (%{error})",
    },
    defaultFlow: {
      label: 'Parcours par défaut',
      none: 'Aucun',
      help: 'Démarre à chaque nouvelle conversation (les mots-clés lancent toujours leur propre parcours).',
      saved: 'Parcours par défaut enregistré',
      error: "Le parcours par défaut n'a pas pu être enregistré (%{error})",
    },
  },
};

export default fr;
