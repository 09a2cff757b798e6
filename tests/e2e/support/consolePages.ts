/**
 * Every page the console serves, for specs that must visit them all (accessibility): the pages of
 * src/app (sign-in, sign-up, company) listed here, and the routes of the plugins plugins.config.ts
 * loads with its enabled features, read from the plugins themselves — a new plugin's pages are
 * visited without touching the specs. A route with a required parameter, or whose nested pages the
 * plugin renders itself (`/*`), needs its example paths in ROUTE_EXAMPLES: `consolePages` fails
 * without them, so no page is silently skipped.
 */
import { enabledFeatures, plugins } from '../../../plugins.config';
import { createFeatureFlags, featureSatisfied } from '../../../src/core/features/featureFlags';

/** Example paths of plugin routes that cannot be derived from the pattern alone. */
export const ROUTE_EXAMPLES: Record<string, string[]> = {
  '/whatsapp-integration/*': [
    '/whatsapp-integration/intro-step',
    '/whatsapp-integration/start',
    '/whatsapp-integration/integration-success',
    '/whatsapp-integration/account-already-connected',
  ],
  '/broadcast/create-broadcast/:type': ['/broadcast/create-broadcast/contacts', '/broadcast/create-broadcast/csv'], '/broadcast/:id': ['/broadcast/1'],
  // The demo's WhatsApp number (channel 3) and its first template (welcome_offer), see server/plugins/templates/demo.ts.
  '/templates/create-whatsapp-template/:category/:type': ['/templates/create-whatsapp-template/marketing/media?channel=3'],
  '/templates/create-whatsapp-carousel': ['/templates/create-whatsapp-carousel?channel=3'],
  '/templates/:channelId/:templateId': ['/templates/3/1'],
  '/bots/:id': ['/bots/1', '/bots/1?view=outline'], '/flows/generic-flow/:botId': ['/flows/generic-flow/1'], // the demo's bot
  // The demo's flow (server/plugins/flows/demo.ts); the branching view is on in the e2e server (CONSOLE_FEATURES).
  '/flows/edit/:flowName': ['/flows/edit/Demo%20Company%20tour'],
  '/flows/branch/:flowName': ['/flows/branch/Demo%20Company%20tour'],
};

/** Pages of src/app for a signed-out visitor (the reset and verification links carry a token, here an unknown one). */
export const PUBLIC_PAGES = [
  '/auth/login',
  '/auth/register',
  '/auth/reset-password',
  '/auth/reset-password/not-a-real-token',
  '/auth/signup/check-email',
  '/auth/signup/create-account?email=someone%40example.test',
  '/auth/signup/verify-account-email?token=not-a-real-token',
];

/** Pages of src/app for a signed-in user (login only). */
export const COMPANY_PAGES = ['/company/select', '/company/create'];

export interface ConsolePage {
  path: string;
  /** Plugin id, for messages. */
  plugin: string;
  /** The route pattern the path is an example of (two examples of one pattern render the same page component). */
  route: string;
}

/** The plugins plugins.config.ts loads with its enabled features. */
function loadedPlugins() {
  const enabled = new Set<string>(enabledFeatures);
  return plugins.filter((p) => !p.featureFlag || enabled.has(p.featureFlag));
}

/** The pages of the loaded plugins' routes, shell and no-layout alike. */
export function pluginPages(): ConsolePage[] {
  const pages: ConsolePage[] = [];
  for (const plugin of loadedPlugins()) {
    for (const route of plugin.routes ?? []) {
      const examples = ROUTE_EXAMPLES[route.path];
      if (examples) {
        pages.push(...examples.map((path) => ({ path, plugin: plugin.id, route: route.path })));
        continue;
      }
      // optional parameters are left out: '/chats/:roomId?' is '/chats'
      const path = route.path.replace(/\/:[^/]+\?/g, '');
      if (/[:*]/.test(path)) throw new Error(`Add example paths for ${route.path} (plugin ${plugin.id}) to ROUTE_EXAMPLES`);
      pages.push({ path, plugin: plugin.id, route: route.path });
    }
  }
  return pages;
}

/** Where a resource page's path holds a record's id: the walk puts the first record of the demo company's list there. */
export const RECORD_ID = '{id}';

/**
 * The views of the loaded plugins' react-admin resources (a plugin's `resources`, not its `routes`): the list at
 * `/<name>`, the create form at `/<name>/create`, a record's page at `/<name>/{id}/show` and its edit form at
 * `/<name>/{id}`, as react-admin mounts them. A resource without views (a name for the data provider and the
 * permissions only) has no page.
 */
export function resourcePages(): (ConsolePage & { resource: string })[] {
  // The console's own rule for a resource's feature requirement (createConsole).
  const flags = createFeatureFlags();
  flags.setEnabled(enabledFeatures);
  const pages: (ConsolePage & { resource: string })[] = [];
  for (const plugin of loadedPlugins()) {
    for (const resource of (plugin.resources ?? []).filter((r) => featureSatisfied(flags, r.feature))) {
      const base = `/${resource.name}`;
      const views = [
        [resource.list, base, 'list'],
        [resource.create, `${base}/create`, 'create'],
        [resource.show, `${base}/${RECORD_ID}/show`, 'show'],
        [resource.edit, `${base}/${RECORD_ID}`, 'edit'],
      ] as const;
      for (const [view, path, kind] of views) {
        if (view) pages.push({ path, plugin: plugin.id, route: `${resource.name}:${kind}`, resource: resource.name });
      }
    }
  }
  return pages;
}
