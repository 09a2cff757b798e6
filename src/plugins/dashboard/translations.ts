/** Strings of the dashboard plugin, keyed `dashboard.*`. Placeholders are Polyglot-style (%{name}). */
export const translations = {
  en: {
    dashboard: {
      menu: 'Dashboard',
      greeting: 'Welcome back, %{name}',
      greetingNoName: 'Welcome back',
      subtitle: "Here's where you manage %{company}.",
      company: {
        title: 'Your company',
        role: 'Your role',
        plan: 'Plan',
        defaultPlan: 'Free plan',
        members: 'Members',
        loadingMembers: 'Loading members',
        unavailable: '—',
      },
      gettingStarted: {
        title: 'Getting started',
        subtitle: 'Next steps to get your team answering customers.',
        channels: { title: 'Connect a channel', description: 'Link your WhatsApp Business account and social pages.' },
        chats: { title: 'Answer conversations', description: 'Read and reply to customer messages from every channel in one inbox.' },
        team: { title: 'Invite your team', description: 'Add admins and agents and choose their roles.' },
        templates: { title: 'Create a message template', description: 'Prepare WhatsApp templates for campaigns and follow-ups.' },
        broadcast: { title: 'Send a broadcast', description: 'Reach many customers at once with a template campaign.' },
        flows: { title: 'Build a bot or flow', description: 'Automate answers with steps, options and actions.' },
      },
    },
  },
  fr: {
    dashboard: {
      menu: 'Tableau de bord',
      greeting: 'Bon retour, %{name}',
      greetingNoName: 'Bon retour',
      subtitle: "C'est ici que vous gérez %{company}.",
      company: {
        title: 'Votre entreprise',
        role: 'Votre rôle',
        plan: 'Offre',
        defaultPlan: 'Offre gratuite',
        members: 'Membres',
        loadingMembers: 'Chargement des membres',
        unavailable: '—',
      },
      gettingStarted: {
        title: 'Premiers pas',
        subtitle: 'Les prochaines étapes pour que votre équipe réponde à vos clients.',
        channels: { title: 'Connecter un canal', description: 'Reliez votre compte WhatsApp Business et vos pages sociales.' },
        chats: { title: 'Répondre aux conversations', description: 'Lisez et répondez aux messages de tous les canaux dans une seule boîte.' },
        team: { title: 'Inviter votre équipe', description: 'Ajoutez des administrateurs et des agents et choisissez leurs rôles.' },
        templates: { title: 'Créer un modèle de message', description: 'Préparez des modèles WhatsApp pour vos campagnes et relances.' },
        broadcast: { title: 'Envoyer une diffusion', description: 'Touchez de nombreux clients à la fois avec une campagne.' },
        flows: { title: 'Créer un bot ou un parcours', description: 'Automatisez les réponses avec des étapes, options et actions.' },
      },
    },
  },
};
