/**
 * The core's typed API tokens and their interfaces. Implementations live beside them in
 * src/core/<area>/ and are registered in src/core/coreApis.ts; plugins and tests may override them.
 */
import type { AuthProvider, DataProvider, I18nProvider } from 'react-admin';
import type { i18n as I18next } from 'i18next';
import type { CompanyMembership, User } from '../../contract/api';
import { createApiRef } from './di/apiRef';
import type { HttpError } from './http/HttpError';

// ---------- configuration ----------
export interface ConsoleConfig {
  /** Base URL of the HTTP API ('' = same origin). */
  apiBase: string;
  /** Default bot-service endpoint, used when a bot integration names none. */
  botServiceUrl: string;
  /** Default socket domain when the company has no translator_domain ('' = same origin). */
  socketDomain: string;
  version: string;
  environment: string;
}
export const configApiRef = createApiRef<ConsoleConfig>({ id: 'core.config' });

// ---------- tokens ----------
export interface SessionStore {
  getAccessToken(): string | null;
  getRefreshToken(): string | null;
  setTokens(tokens: { access: string; refresh?: string }): void;
  clear(): void;
  /** True when the token expires within the 30 s margin (or cannot be decoded). */
  isExpired(token: string | null): boolean;
}
export const sessionApiRef = createApiRef<SessionStore>({ id: 'core.session' });

// ---------- account (user + selected company), persisted in full ----------
export type AccountEvent = 'userChanged' | 'companyChanged' | 'signedOut';
export interface AccountStore {
  getUser(): User | null;
  setUser(user: User | null): void;
  getCompanyId(): number | null;
  /** The membership of the selected company, or null. */
  getCompany(): CompanyMembership | null;
  /** Selects a company: saves it and emits `companyChanged` so per-company state is reset. */
  selectCompany(companyId: number | null): void;
  /** Clears user and company and emits `signedOut`. */
  clear(): void;
  subscribe(listener: (event: AccountEvent) => void): () => void;
}
export const accountApiRef = createApiRef<AccountStore>({ id: 'core.account' });

// ---------- HTTP ----------
export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  headers?: Record<string, string>;
  /** false for the spec's unauthenticated calls; default true (bearer token + Company header). */
  auth?: boolean;
  /** Override the base URL (bot service). */
  baseUrl?: string;
  signal?: AbortSignal;
}
export interface HttpProvider {
  request<T = unknown>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, options?: RequestOptions): Promise<T>;
  delete<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * Listens to every failed call (its HttpError), before the caller's own handling: for answers any
   * call may get whatever the page (a plan limit, say). Optional: test doubles need not have it.
   */
  onFailure?(listener: (error: HttpError) => void): () => void;
}
export const httpApiRef = createApiRef<HttpProvider>({ id: 'core.http' });

// ---------- auth (react-admin authProvider plus the calls the auth pages make) ----------
export interface ConsoleAuthProvider extends AuthProvider {
  /** Loads GET /account/user/ into the account store. */
  loadUser(): Promise<User>;
  /** POST /account/facebook/ or /account/google/ with the provider's access token; then like login(). */
  socialLogin(provider: 'facebook' | 'google', accessToken: string): Promise<void>;
}
export const authApiRef = createApiRef<ConsoleAuthProvider>({ id: 'core.auth' });

// ---------- permissions ----------
export interface PermissionProvider {
  canView(area: string): boolean;
  canManage(area: string): boolean;
  /** react-admin `canAccess`: list/show → view, create/edit/delete → manage, of the resource's area. */
  canAccess(params: { resource: string; action: string; record?: unknown }): boolean;
  /** Maps a resource name to its permission area (plugins declare it). */
  setResourceAreas(map: Record<string, string>): void;
}
export const permissionApiRef = createApiRef<PermissionProvider>({ id: 'core.permissions' });

// ---------- feature flags ----------
export interface FeatureFlags {
  /** Sets the one list of enabled keys; only once, at start-up. */
  setEnabled(keys: readonly string[]): void;
  /** While unset, returns the caller's default (false unless given). */
  isEnabled(key: string, defaultValue?: boolean): boolean;
}
export const featureFlagsApiRef = createApiRef<FeatureFlags>({ id: 'core.featureFlags' });

// ---------- alerts ----------
export type AlertType = 'error' | 'success' | 'info' | 'warning';
export interface AlertState {
  active: boolean;
  text: string;
  type: AlertType;
  loader: boolean;
  /** Counts down from 100 to 0, one step every 50 ms; closes at 0. */
  progress: number;
  /** A link shown with the text (e.g. a plan limit's "See plans" to /pricing). */
  action?: AlertAction;
}
export interface AlertAction {
  label: string;
  /** An in-console path. */
  to: string;
}
export interface AlertApi {
  getState(): AlertState;
  show(text: string, type?: AlertType, options?: { loader?: boolean; action?: AlertAction }): void;
  success(text: string): void;
  error(text: string): void;
  info(text: string): void;
  warning(text: string): void;
  dismiss(): void;
  subscribe(listener: (state: AlertState) => void): () => void;
}
export const alertApiRef = createApiRef<AlertApi>({ id: 'core.alert' });

// ---------- i18n ----------
export interface I18nApi {
  i18n: I18next;
  /** react-admin bridge over the same i18next instance. */
  provider: I18nProvider;
  addResources(resources: Record<string, Record<string, unknown>>): void;
  /** Declares a plugin's lazily loaded strings: one loader per locale (src/core/i18n/lazyBundles.ts). */
  registerBundle(id: string, loaders: Record<string, () => Promise<Record<string, unknown>>>): void;
  /** Loads these bundles for the current language (once); resolves when their strings are there. Remembered: a language change loads them again. */
  loadBundles(ids: readonly string[]): Promise<void>;
  /** True when every one of these bundles is there for the current language (or has no loader). */
  bundlesReady(ids: readonly string[]): boolean;
}
export const i18nApiRef = createApiRef<I18nApi>({ id: 'core.i18n' });

// ---------- data ----------
export const dataProviderApiRef = createApiRef<DataProvider>({ id: 'core.dataProvider' });

// ---------- realtime ----------
/** What a consumer holds of a phoenix Push (a join, a push): its reply hooks. */
export interface RealtimePush {
  receive<T = unknown>(status: 'ok' | 'error' | 'timeout', callback: (response: T) => void): RealtimePush;
}

/** A consumer's hold on a topic of the shared socket (src/core/realtime/sharedSocket.ts): phoenix's Channel, as used. */
export interface RealtimeChannel {
  readonly topic: string;
  on<T = unknown>(event: string, callback: (payload: T) => void): number;
  off(event: string, ref?: number): void;
  join(timeout?: number): RealtimePush;
  push(event: string, payload: object, timeout?: number): RealtimePush;
  /** Lets go of this consumer's bindings; the channel is left when no consumer holds its topic. */
  leave(): void;
}

/** A consumer's hold on the company's socket: phoenix's Socket, as used. */
export interface RealtimeSocket {
  /** Opens the socket if no other consumer had. */
  connect(): void;
  /** Lets go of this consumer's channels and callbacks; the socket closes when nobody holds it. */
  disconnect(): void;
  /** `params` are sent with the first join of the topic on this socket (and its rejoins). */
  channel(topic: string, params?: object | (() => object)): RealtimeChannel;
  /** Also called (asynchronously) when this consumer connects to a socket already open. */
  onOpen(callback: () => void): string;
  onError(callback: (reason?: unknown) => void): string;
  onClose(callback: (event?: unknown) => void): string;
  isConnected(): boolean;
  endPointURL(): string;
}

export interface RealtimeClientFactory {
  /**
   * A hold on the company's one socket, at `{translator-domain or default}/socket` with the access token and company
   * id as params: every consumer of a company shares it (a connect each, against the server's per-user limit, otherwise).
   */
  createSocket(): RealtimeSocket;
}
export const realtimeApiRef = createApiRef<RealtimeClientFactory>({ id: 'core.realtime' });

// ---------- social SDKs (Facebook: embedded signup, page connection, login; Google: login) ----------
/** What the WhatsApp embedded signup hands back: the SDK's code and the message event's ids (spec §3 embedded signup data). */
export interface EmbeddedSignupResult {
  code: string;
  phone_number_id: string;
  waba_id: string;
  /** Whatever the SDK's message events carried that was not JSON. */
  non_json_data?: unknown;
}
/** The user closed the provider's dialog ('Facebook login was closed'). */
export class SocialDialogClosedError extends Error {
  constructor(readonly provider: 'facebook' | 'google') {
    super(`${provider} dialog closed`);
    this.name = 'SocialDialogClosedError';
  }
}
/** The provider's SDK could not be loaded (offline, blocked) or is not configured. */
export class SocialSdkUnavailableError extends Error {
  constructor(readonly provider: 'facebook' | 'google', reason: string) {
    super(reason);
    this.name = 'SocialSdkUnavailableError';
  }
}
export interface SocialApi {
  /** GET /api/client-config/ (cached), falling back to the build's VITE_* settings. */
  clientConfig(): Promise<import('../../contract/channels').ClientConfig>;
  /** Facebook login → the user's access token; 'pages' asks the page scopes (connecting Messenger/Instagram). */
  facebookLogin(scopes: 'login' | 'pages'): Promise<string>;
  /** Runs the WhatsApp embedded signup (FB.login with config_id and the WA_EMBEDDED_SIGNUP message events). */
  facebookEmbeddedSignup(): Promise<EmbeddedSignupResult>;
  /** Google Identity Services token client → an access token. */
  googleLogin(): Promise<string>;
}
export const socialApiRef = createApiRef<SocialApi>({ id: 'core.social' });
