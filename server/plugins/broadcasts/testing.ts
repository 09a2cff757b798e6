/** Test helpers of the broadcasts plugin, the only way other plugins' tests reach into it: the tables tests seed broadcasts into. */
export { broadcastRecipients, broadcasts, optOuts } from './schema';
