import { mdiAccountGroupOutline, mdiBullhornOutline, mdiConnection, mdiFileDocumentEditOutline, mdiForumOutline, mdiRobotOutline } from '@mdi/js';

export interface GettingStartedStep {
  /** i18n key under dashboard.gettingStarted. */
  id: string;
  /** Feature key that must be enabled. */
  feature: string;
  /** Permission area that must be viewable (none: always viewable). */
  area?: string;
  to: string;
  icon: string;
}

/** The real next steps of a new workspace, in the order a team usually takes them. */
export const gettingStartedSteps: GettingStartedStep[] = [
  { id: 'channels', feature: 'channels', area: 'channels', to: '/channels', icon: mdiConnection },
  { id: 'chats', feature: 'chats', area: 'chats', to: '/chats', icon: mdiForumOutline },
  { id: 'team', feature: 'members', area: 'members', to: '/team', icon: mdiAccountGroupOutline },
  { id: 'templates', feature: 'whatsapp_templates', area: 'whatsapp_templates', to: '/templates', icon: mdiFileDocumentEditOutline },
  { id: 'broadcast', feature: 'triggers', to: '/broadcast', icon: mdiBullhornOutline },
  // Bots and flows share the 'flows' key and area; the bot list is where a newcomer starts.
  { id: 'flows', feature: 'flows', area: 'flows', to: '/bots', icon: mdiRobotOutline },
];

/**
 * Steps whose page a loaded plugin serves (a feature key may be on while no plugin brings the page:
 * the card would lead to "Not Found"), whose feature is enabled and whose area the user may view.
 */
export function availableSteps(
  steps: GettingStartedStep[],
  isEnabled: (feature: string) => boolean,
  canView: (area: string) => boolean,
  isServed: (path: string) => boolean,
): GettingStartedStep[] {
  return steps.filter((step) => isServed(step.to) && isEnabled(step.feature) && (!step.area || canView(step.area)));
}
