/**
 * TRANSITIONAL (issue #20): the accessors' old address, for the files of other plugins (bots, flows,
 * server/testing) that still import it. Delete once none does: the accessors live in ./index.ts.
 */
export { chatService, useHubForTests } from './index';
