/** The time-sliced work primitive moved to the core (server/core/jobs/slices.ts), where the contacts' import uses it too. */
export { SLICE_MS, Slicer } from '../../../core/jobs/slices';
