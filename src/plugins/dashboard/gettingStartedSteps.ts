import type { DashboardSetup } from '../../../contract/stats';
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
  /** The company has taken this step when this figure of GET /api/stats/dashboard/ `setup` is true. */
  doneWhen: keyof DashboardSetup;
}

/** A step as the card shows it: done (check icon, still reachable) or still to do. */
export interface StepProgress {
  step: GettingStartedStep;
  done: boolean;
}

/** The real next steps of a new workspace, in the order a team usually takes them. */
export const gettingStartedSteps: GettingStartedStep[] = [
  { id: 'channels', feature: 'channels', area: 'channels', to: '/channels', icon: mdiConnection, doneWhen: 'channel_connected' },
  { id: 'chats', feature: 'chats', area: 'chats', to: '/chats', icon: mdiForumOutline, doneWhen: 'conversation_answered' },
  { id: 'team', feature: 'members', area: 'members', to: '/team', icon: mdiAccountGroupOutline, doneWhen: 'teammate_invited' },
  { id: 'templates', feature: 'whatsapp_templates', area: 'whatsapp_templates', to: '/templates', icon: mdiFileDocumentEditOutline, doneWhen: 'template_created' },
  { id: 'broadcast', feature: 'triggers', to: '/broadcast', icon: mdiBullhornOutline, doneWhen: 'broadcast_sent' },
  // Bots and flows share the 'flows' key and area; the bot list is where a newcomer starts.
  { id: 'flows', feature: 'flows', area: 'flows', to: '/bots', icon: mdiRobotOutline, doneWhen: 'bot_built' },
];

/**
 * Each step with whether the company has taken it. Without the figures (not loaded yet, failed, or
 * no stats plugin), every step counts as still to do.
 */
export function stepProgress(steps: GettingStartedStep[], setup: DashboardSetup | null | undefined): StepProgress[] {
  return steps.map((step) => ({ step, done: !!setup && setup[step.doneWhen] === true }));
}

/** The card is shown while some step is still to do (and there is a step at all). */
export function showGettingStarted(progress: StepProgress[]): boolean {
  return progress.some((p) => !p.done);
}

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
