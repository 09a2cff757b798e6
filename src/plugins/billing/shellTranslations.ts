/**
 * The billing plugin's strings the shell shows before any of its pages opens (menu label, the plan-limit alert),
 * loaded with the shell (ConsolePlugin.translations). Every other string is in ./translations.ts, loaded with the plugin's pages.
 */
export const shellTranslations = {
  en: {
    billing: {
      menu: 'Pricing',
      limit: {
        seePlans: 'See plans',
        askAdmin: 'Ask an admin of your company to upgrade the plan.',
      },
    },
  },
  fr: {
    billing: {
      menu: 'Tarifs',
      limit: {
        seePlans: 'Voir les offres',
        askAdmin: "Demandez à un administrateur de votre entreprise de changer d'offre.",
      },
    },
  },
};
