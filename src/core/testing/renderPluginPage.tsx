import { Suspense, type ReactElement, type ReactNode } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore } from 'react-admin';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation, type Location } from 'react-router-dom';
import type { User } from '../../../contract/api';
import {
  accountApiRef,
  alertApiRef,
  authApiRef,
  dataProviderApiRef,
  httpApiRef,
  i18nApiRef,
  realtimeApiRef,
  sessionApiRef,
  socialApiRef,
  type HttpProvider,
  type RealtimeSocket,
  type SocialApi,
} from '../apis';
import { createConsole, overrideApi, type ApiOverride } from '../plugins/createConsole';
import { ConsoleProvider } from '../plugins/ConsoleContext';
import type { ConsolePlugin } from '../plugins/types';
import { addLazyPluginStrings } from './lazyPluginStrings';

export interface RenderPluginPageOptions {
  plugins?: ConsolePlugin[];
  features?: string[];
  /** Initial URL, e.g. '/auth/login?email=a@b.co' (default '/'). */
  path?: string;
  /**
   * Route pattern the page is mounted at, e.g. '/flows/edit/:name' (default: `path` without its query).
   * `false` renders `ui` bare inside the router, for component and hook tests.
   */
  route?: string | false;
  /** Fake HTTP provider (see ./fakeHttp): the main API and the bot service alike. */
  http?: HttpProvider;
  social?: SocialApi;
  /** What the realtime API connects to (e.g. chats/testing's FakeSocket.asSocket(), whose `emit` plays the server). */
  socket?: RealtimeSocket;
  overrides?: ApiOverride[];
  /** Strings beyond the plugins' own (e.g. the app pages'), per locale. */
  translations?: Record<string, object>[];
  locale?: string;
  /** Signed-in user and selected company. */
  user?: User;
  companyId?: number | null;
  /** Gives the session an access and a refresh token, as after a sign-in. */
  signedIn?: boolean;
  /** Wraps the page in react-admin's context (forms, lists, useLogin) as the console does; default true. */
  adminContext?: boolean;
  /** Rendered beside the routes (e.g. a link out of the page). */
  besideRoutes?: ReactNode;
  /** Other routes render `<div data-testid="elsewhere">` showing the path, so a test sees the page was left. */
  markElsewhere?: boolean;
}

/** A token the session accepts (decodable, expiring in an hour); the fake HTTP provider never checks it. */
function testToken(): string {
  const payload = btoa(JSON.stringify({ sub: '7', typ: 'access', exp: Math.floor(Date.now() / 1000) + 3600 }));
  return `e30.${payload.replace(/=+$/, '')}.sig`;
}

function Elsewhere() {
  return <div data-testid="elsewhere">{useLocation().pathname}</div>;
}

/** Shows where the page navigated to (`screen.getByTestId('location')`: path and query) and tells the harness. */
function LocationProbe({ onLocation }: { onLocation: (location: Location) => void }) {
  const location = useLocation();
  onLocation(location);
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

/**
 * Renders `ui` as the console does: a console with `plugins` (fake APIs through the options), i18n
 * with the plugins' lazy strings, a memory router at `path`, react-admin's context and the page at its route.
 */
export function renderPluginPage(ui: ReactElement, options: RenderPluginPageOptions = {}) {
  const path = options.path ?? '/';
  const overrides = [...(options.overrides ?? [])];
  if (options.http) overrides.push(overrideApi(httpApiRef, options.http));
  if (options.social) overrides.push(overrideApi(socialApiRef, options.social));
  const socket = options.socket;
  if (socket) overrides.push(overrideApi(realtimeApiRef, { createSocket: () => socket }));
  const console = createConsole({
    plugins: options.plugins ?? [],
    features: options.features ?? [],
    overrides,
    translations: options.translations as Record<string, Record<string, unknown>>[] | undefined,
  });
  addLazyPluginStrings(console); // the plugins' page strings, as their routes load them
  const account = console.get(accountApiRef);
  if (options.user) account.setUser(options.user);
  if (options.companyId !== undefined) account.selectCompany(options.companyId);
  if (options.signedIn) console.get(sessionApiRef).setTokens({ access: testToken(), refresh: testToken() });
  const i18n = console.get(i18nApiRef);
  if (options.locale) void i18n.i18n.changeLanguage(options.locale);

  let location: Location | undefined;
  const page =
    options.route === false ? (
      ui
    ) : (
      <>
        <Routes>
          {/* As the route wrapper does: a page's lazy parts (e.g. another plugin's account section) suspend here. */}
          <Route path={options.route ?? path.split('?')[0]} element={<Suspense fallback={null}>{ui}</Suspense>} />
          <Route path="*" element={options.markElsewhere ? <Elsewhere /> : null} />
        </Routes>
        {options.besideRoutes}
        <LocationProbe onLocation={(current) => (location = current)} />
      </>
    );
  const result = render(
    <ConsoleProvider console={console}>
      <I18nextProvider i18n={i18n.i18n}>
        <MemoryRouter initialEntries={[path]}>
          {options.adminContext === false ? (
            page
          ) : (
            <AdminContext
              i18nProvider={i18n.provider}
              authProvider={console.get(authApiRef)}
              dataProvider={console.get(dataProviderApiRef)}
              store={memoryStore()}
            >
              {page}
            </AdminContext>
          )}
        </MemoryRouter>
      </I18nextProvider>
    </ConsoleProvider>,
  );
  return {
    ...result,
    console,
    account,
    alert: () => console.get(alertApiRef).getState(),
    alertText: () => console.get(alertApiRef).getState().text,
    /** The router's path (without the query) as the page last left it. */
    currentPath: () => location?.pathname,
  };
}
