// What `npm test` needs from the system (Chromium for the end-to-end tests, HAProxy for the cluster test),
// found the same way: the variable naming it (the only place looked at when set: a wrong path is reported,
// never silently replaced), else its usual paths; without one, installed from Debian's packages when
// running as root with apt-get (a bare machine's `npm install && npm test`), else one line with the command
// to run. scripts/chromium.mjs and scripts/haproxy.mjs describe their tool to it.

/**
 * @param {object} tool
 * @param {string} tool.name        e.g. 'Chromium'
 * @param {string} tool.purpose     e.g. 'the end-to-end tests'
 * @param {string} tool.envVar      e.g. 'CHROMIUM_PATH'
 * @param {string} tool.fixEnvVar   what to do about a wrong path, e.g. 'point it at a Chromium or Chrome'
 * @param {string} tool.aptCommand  the shell line installing the package
 * @param {string} tool.aptPackage  the package's name, for messages
 * @param {() => string | undefined} tool.find  the tool found now
 * @param {(options: { exists: (p: string) => boolean, isRoot: boolean }) => string} tool.installHint
 */
export function ensureDebianTool(tool, { env, exists, isRoot, run, log }) {
  const found = tool.find();
  if (found) return { path: found };
  if (!env[tool.envVar] && isRoot && exists('/usr/bin/apt-get')) {
    log(`No ${tool.name} found: installing Debian's (apt-get install ${tool.aptPackage}) for ${tool.purpose}…`);
    const install = run('sh', ['-c', tool.aptCommand], { stdio: 'inherit' });
    const installed = install.status === 0 ? tool.find() : undefined;
    if (installed) return { path: installed };
  }
  if (env[tool.envVar]) return { error: `No ${tool.name} for ${tool.purpose}: ${tool.envVar}=${env[tool.envVar]} does not exist (${tool.fixEnvVar}, or unset it)` };
  return { error: `No ${tool.name} for ${tool.purpose}. Run: ${tool.installHint({ exists, isRoot })}` };
}
