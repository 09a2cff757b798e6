import type { CoreMessages } from './en';

/** Core strings (French). */
export const fr: CoreMessages = {
  core: {
    logo: {
      label: "Logo de l'entreprise",
      upload: 'Ajouter un logo',
      change: 'Changer le logo',
      remove: 'Retirer le logo',
      hint: "Facultatif. Une image jusqu'à 100 Ko.",
      tooLarge: 'Le logo ne doit pas dépasser 100 Ko.',
      notImage: 'Choisissez un fichier image.',
    },
    appName: 'Console de messagerie professionnelle',
    errors: {
      noPermission: "Vous n'avez pas la permission d'accéder à cette page.",
      notAuthenticated: 'Non authentifié, veuillez vous connecter.',
      accountLoad: 'Une erreur est survenue lors du chargement de votre compte.',
      generic: 'Une erreur est survenue',
    },
    chunkLoad: {
      title: "Cette page n'a pas pu être chargée",
      message: "La connexion a pu être interrompue, ou la console vient d'être mise à jour. Rechargez-la pour continuer.",
      reload: 'Recharger',
    },
    notFound: {
      title: 'Page introuvable',
      message: "Cette page n'existe pas ou n'est plus ici. Vérifiez l'adresse, ou revenez au tableau de bord.",
      toDashboard: 'Aller au tableau de bord',
    },
    empty: {
      title: 'Aucun résultat.',
      message: "Il n'y a aucune donnée pour le moment, revenez plus tard.",
    },
    menu: {
      dashboard: 'Tableau de bord',
      channels: 'Canaux',
      flows: 'Flux',
      chats: 'Discussions',
      stats: 'Statistiques',
      broadcast: 'Diffusion',
      bots: 'Bots',
      team: 'Équipe',
      account: 'Compte',
      resources: 'Ressources',
      pricing: 'Tarifs',
      templates: 'Modèles',
      permissions: 'Permissions',
    },
    invitations: {
      waiting: 'Vous êtes invité(e) à rejoindre %{companies}.',
      review: 'Voir les invitations',
      dismiss: 'Masquer',
    },
    appBar: {
      switchCompany: "Changer d'entreprise",
      noCompany: 'Choisir une entreprise',
      account: 'Compte',
      signOut: 'Se déconnecter',
      language: 'Langue',
      toggleTheme: 'Basculer le thème clair/sombre',
    },
    alert: {
      close: 'Fermer',
    },
    table: {
      all: 'Tout',
    },
    loading: 'Chargement…',
  },
  validation: {
    required: 'Ce champ est requis',
    email: 'Saisissez une adresse e-mail valide',
    minLength: 'Doit contenir au moins %{min} caractères',
    maxLength: 'Doit contenir au plus %{max} caractères',
  },
};
