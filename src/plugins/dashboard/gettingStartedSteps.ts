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
  { id: 'flows', feature: 'flows', area: 'flows', to: '/flows', icon: mdiRobotOutline },
];

/** Steps whose feature is enabled and whose area the user may view. */
export function availableSteps(
  steps: GettingStartedStep[],
  isEnabled: (feature: string) => boolean,
  canView: (area: string) => boolean,
): GettingStartedStep[] {
  return steps.filter((step) => isEnabled(step.feature) && (!step.area || canView(step.area)));
}
