/** The feature plugins' isolation areas (see ./areas.ts). A new plugin adds its line here. */
import type { IsolationArea } from './areas';
import { broadcastsIsolation } from '../../plugins/broadcasts/isolation';
import { botsIsolation } from '../../plugins/bots/isolation';
import { billingIsolation } from '../../plugins/billing/isolation';
import { flowsIsolation } from '../../plugins/flows/isolation';
import { statsIsolation } from '../../plugins/stats/isolation';

export const ISOLATION_AREAS: IsolationArea[] = [broadcastsIsolation, botsIsolation, billingIsolation, flowsIsolation, statsIsolation];
