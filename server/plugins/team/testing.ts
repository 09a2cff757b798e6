/** Test helpers of the team plugin other plugins' tests use (their only way into the team's test set-up). */
// for the bots plugin: a company with a signed-in admin, manager and agent
export { teamFixture, type TeamFixture } from './testFixtures';
