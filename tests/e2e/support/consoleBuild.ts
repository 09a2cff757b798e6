/**
 * Where the end-to-end runs build the console: one folder per port (VITE_OUT_DIR / STATIC_DIR of the
 * webServer in playwright.config.ts), so two runs side by side never overwrite each other's files.
 * A spec's own server process (serverProcess.ts) serves the folder its run's webServer built.
 * The same for the compiled server (SERVER_OUT_DIR, scripts/build-server.mjs): a spec's own server
 * process runs the one its run's webServer built.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);

export function consoleBuildDir(port = E2E_PORT): string {
  return `.test-data/dist-${port}`;
}

export function serverBuildDir(port = E2E_PORT): string {
  return `.test-data/dist-server-${port}`;
}
