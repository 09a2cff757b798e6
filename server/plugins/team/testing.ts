/** Test helpers of the team plugin other plugins' tests use (their only way into the team's test set-up). */
// a company with a signed-in admin, manager and agent, and the refusals' messages
export { COMPANY_FORBIDDEN, NOT_FOUND, PERMISSION_DENIED, teamFixture, type TeamFixture } from './testFixtures';
