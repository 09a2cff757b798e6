/**
 * Whether an error is a page's code that could not be fetched: a dynamic import refused by the network (offline, the
 * server gone) or a chunk a newer deploy removed (a tab opened before the deploy asks for the old file names).
 * Each browser words it its own way; Vite's preload helper throws "Unable to preload CSS" for a stylesheet.
 */
const CHUNK_LOAD_FAILURE = [
  'Failed to fetch dynamically imported module', // Chromium
  'error loading dynamically imported module', // Firefox
  'Importing a module script failed', // Safari
  'Unable to preload CSS', // Vite's preload helper
];

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_LOAD_FAILURE.some((words) => message.includes(words));
}
