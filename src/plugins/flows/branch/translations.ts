/**
 * Strings of the branching view (/flows/branch/{flowName}), keyed `flowBranch.*`, registered by the
 * page itself when it loads (registerBranchTranslations). The spec's strings (§8) are verbatim in
 * English; the error alert is composed by contract/flows.ts flowErrorMessage.
 */
import { FLOW_MESSAGES } from '../../../../contract/flows';

export const branchTranslations = {
  en: {
    flowBranch: {
      title: 'Branching view',
      subtitle: 'Steps as boxes, options as labelled links to the step they lead to.',
      back: 'Back to flows',
      editWhole: 'Edit the whole flow',
      loading: 'Loading the flow…',
      notFound: 'No flow named "%{name}" in this company.',
      noAccess: 'Only members who can manage flows can open the flows. Ask an admin of your company.',
      loadError: 'The flow could not be loaded (%{error}).',
      readOnly: 'You can look at this flow; only members who can manage flows change it.',
      addStep: 'Add step',
      newStepMessage: 'New step',
      autoLayout: 'Auto layout',
      save: 'Save',
      saving: 'Saving…',
      unsaved: 'Unsaved changes',
      saved: 'Saved',
      success: FLOW_MESSAGES.updated,
      invalid: 'Fix the flow before saving: %{problem}',
      empty: 'This flow has no step yet. Add the first one with "Add step".',
      help: 'Drag from an option\'s dot or a step\'s "next" dot onto a step to connect them. Select a link or a step and press Delete to remove it.',
      canvasLabel: 'Flow graph',
      minimap: 'Mini map',
      start: {
        label: 'Intro',
        noIntro: 'No intro message',
      },
      edge: {
        next: 'Next',
        then: 'then',
        start: 'start',
      },
      node: {
        first: 'First step',
        editStep: 'Edit step',
        addOption: 'Add option',
        noMessage: '(no message)',
        nextHandle: 'Next step of %{step}',
        optionHandle: 'Option %{option} of %{step}',
        inHandle: 'Into %{step}',
        types: { text: 'Text', options: 'Options' },
      },
      panel: {
        title: 'Step %{id}',
        close: 'Close',
        message: 'Message',
        type: 'Type',
        options: 'Options',
        noOptions: 'No option: the customer reads the message and the flow goes on.',
        option: 'Option %{n}',
        optionTarget: 'Option %{n} leads to',
        nextStep: 'Next step',
        inOrder: 'The next in order',
        addOption: 'Add option',
        removeOption: 'Remove option %{n}',
        tooManyOptions: 'At most %{max} options.',
        deleteStep: 'Delete step',
      },
      confirmDelete: {
        title: 'Delete?',
        message: 'Delete %{count} selected element(s)? Links to deleted steps are removed.',
        confirm: 'Delete',
        cancel: 'Cancel',
      },
      leave: {
        title: 'Leave without saving?',
        message: 'Your changes to this flow are not saved yet.',
        confirm: 'Leave',
        cancel: 'Stay',
      },
    },
  },
  fr: {
    flowBranch: {
      title: 'Vue en branches',
      subtitle: 'Les étapes en cases, les options en liens nommés vers l’étape où elles mènent.',
      back: 'Retour aux parcours',
      editWhole: 'Modifier tout le parcours',
      loading: 'Chargement du parcours…',
      notFound: 'Aucun parcours nommé « %{name} » dans cette entreprise.',
      noAccess: 'Seuls les membres qui peuvent gérer les parcours peuvent les ouvrir. Demandez à un administrateur de votre entreprise.',
      loadError: 'Le parcours n’a pas pu être chargé (%{error}).',
      readOnly: 'Vous pouvez consulter ce parcours ; seuls les membres qui gèrent les parcours le modifient.',
      addStep: 'Ajouter une étape',
      newStepMessage: 'Nouvelle étape',
      autoLayout: 'Disposition automatique',
      save: 'Enregistrer',
      saving: 'Enregistrement…',
      unsaved: 'Modifications non enregistrées',
      saved: 'Enregistré',
      success: 'Succès : le parcours a été mis à jour !',
      invalid: 'Corrigez le parcours avant d’enregistrer : %{problem}',
      empty: 'Ce parcours n’a pas encore d’étape. Ajoutez la première avec « Ajouter une étape ».',
      help: 'Glissez du point d’une option ou du point « suivante » d’une étape vers une étape pour les relier. Sélectionnez un lien ou une étape et appuyez sur Suppr pour le retirer.',
      canvasLabel: 'Graphe du parcours',
      minimap: 'Mini-carte',
      start: {
        label: 'Introduction',
        noIntro: 'Pas de message d’introduction',
      },
      edge: {
        next: 'Suivante',
        then: 'puis',
        start: 'début',
      },
      node: {
        first: 'Première étape',
        editStep: 'Modifier l’étape',
        addOption: 'Ajouter une option',
        noMessage: '(pas de message)',
        nextHandle: 'Étape suivante de %{step}',
        optionHandle: 'Option %{option} de %{step}',
        inHandle: 'Vers %{step}',
        types: { text: 'Texte', options: 'Options' },
      },
      panel: {
        title: 'Étape %{id}',
        close: 'Fermer',
        message: 'Message',
        type: 'Type',
        options: 'Options',
        noOptions: 'Aucune option : le client lit le message et le parcours continue.',
        option: 'Option %{n}',
        optionTarget: 'L’option %{n} mène à',
        nextStep: 'Étape suivante',
        inOrder: 'La suivante dans l’ordre',
        addOption: 'Ajouter une option',
        removeOption: 'Retirer l’option %{n}',
        tooManyOptions: '%{max} options au plus.',
        deleteStep: 'Supprimer l’étape',
      },
      confirmDelete: {
        title: 'Supprimer ?',
        message: 'Supprimer %{count} élément(s) sélectionné(s) ? Les liens vers les étapes supprimées sont retirés.',
        confirm: 'Supprimer',
        cancel: 'Annuler',
      },
      leave: {
        title: 'Quitter sans enregistrer ?',
        message: 'Vos modifications de ce parcours ne sont pas encore enregistrées.',
        confirm: 'Quitter',
        cancel: 'Rester',
      },
    },
  },
};

const registered = new WeakSet<object>();

/** Adds the view's strings to the console's i18n once (the page is loaded on demand). */
export function registerBranchTranslations(i18n: { addResources(resources: Record<string, Record<string, unknown>>): void }): void {
  if (registered.has(i18n)) return;
  registered.add(i18n);
  i18n.addResources(branchTranslations);
}
