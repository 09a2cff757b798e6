/**
 * The feature plugins' isolation areas (see ./areas.ts): each plugin's server/plugins/<id>/isolation.ts.
 * Test infrastructure only: nothing in production imports these files. A new plugin adds its line here.
 * Seeds run in this order: the bots area installs the real bot key the flows area's calls use.
 */
import type { IsolationArea } from './areas';
import { accountsIsolation } from '../../plugins/accounts/isolation';
import { companiesIsolation } from '../../plugins/companies/isolation';
import { chatsIsolation } from '../../plugins/chats/isolation';
import { channelsIsolation } from '../../plugins/channels/isolation';
import { sandboxIsolation } from '../../plugins/sandbox/isolation';
import { teamIsolation } from '../../plugins/team/isolation';
import { agentTemplatesIsolation } from '../../plugins/agentTemplates/isolation';
import { templatesIsolation } from '../../plugins/templates/isolation';
import { broadcastsIsolation } from '../../plugins/broadcasts/isolation';
import { botsIsolation } from '../../plugins/bots/isolation';
import { billingIsolation } from '../../plugins/billing/isolation';
import { flowsIsolation } from '../../plugins/flows/isolation';
import { statsIsolation } from '../../plugins/stats/isolation';
import { contactsIsolation } from '../../plugins/contacts/isolation';
import { segmentsIsolation } from '../../plugins/contacts/segmentsIsolation';
import { assistantIsolation } from '../../plugins/assistant/isolation';
import { hoursIsolation } from '../../plugins/hours/isolation';

export const ISOLATION_AREAS: IsolationArea[] = [
  accountsIsolation,
  companiesIsolation,
  chatsIsolation,
  channelsIsolation,
  sandboxIsolation,
  teamIsolation,
  agentTemplatesIsolation,
  templatesIsolation,
  broadcastsIsolation,
  botsIsolation,
  billingIsolation,
  flowsIsolation,
  statsIsolation,
  contactsIsolation,
  segmentsIsolation,
  assistantIsolation,
  hoursIsolation,
];
