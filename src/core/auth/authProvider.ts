import type { LoginResponse, User } from '../../../contract/api';
import type { AccountStore, AlertApi, ConsoleAuthProvider, HttpProvider, PermissionProvider, SessionStore } from '../apis';
import { isHttpError } from '../http/HttpError';
import { userFullName } from '../account/userName';

export const LOGIN_PATH = '/auth/login';

export interface AuthProviderDeps {
  http: HttpProvider;
  session: SessionStore;
  account: AccountStore;
  permissions: PermissionProvider;
  alert: AlertApi;
  translate: (key: string) => string;
}

/** Keeps the saved company if the user still belongs to it, else picks the only one, else none. */
export function chooseCompany(user: User, savedCompanyId: number | null): number | null {
  const companies = user.companies ?? [];
  if (savedCompanyId !== null && companies.some((c) => c.id === savedCompanyId)) return savedCompanyId;
  return companies.length === 1 ? companies[0].id : null;
}

/** react-admin authProvider over the spec's account endpoints (§7), plus `loadUser`. */
export function createAuthProvider(deps: AuthProviderDeps): ConsoleAuthProvider {
  const { http, session, account, permissions, alert, translate } = deps;

  const signOut = () => {
    session.clear();
    account.clear();
  };

  const applyUser = (user: User) => {
    account.setUser(user);
    const companyId = chooseCompany(user, account.getCompanyId());
    if (companyId !== account.getCompanyId()) account.selectCompany(companyId);
    return companyId;
  };

  const hasUsableToken = () => {
    const access = session.getAccessToken();
    const refresh = session.getRefreshToken();
    return (!!access && !session.isExpired(access)) || (!!refresh && !session.isExpired(refresh));
  };

  return {
    async login({ email, password }: { email: string; password: string }) {
      const response = await http.post<LoginResponse>('/account/login/', { email, password }, { auth: false });
      session.setTokens({ access: response.access, refresh: response.refresh });
      const companyId = applyUser(response.user);
      return { redirectTo: companyId !== null ? '/dashboard' : '/company/select' };
    },

    async socialLogin(provider: 'facebook' | 'google', accessToken: string) {
      const response = await http.post<LoginResponse>(`/account/${provider}/`, { access_token: accessToken }, { auth: false });
      session.setTokens({ access: response.access, refresh: response.refresh });
      applyUser(response.user);
    },

    async loadUser() {
      try {
        const user = await http.get<User>('/account/user/');
        applyUser(user);
        return user;
      } catch (error) {
        // Spec §8: an answered failure alerts, then signs out. A request that never got an answer
        // (offline, or cut short because the page is being left) keeps the stored session: clearing
        // it there would sign out a page the user is navigating to, or everyone on a flaky network.
        if (isHttpError(error)) {
          alert.error(translate('core.errors.accountLoad'));
          signOut();
        }
        throw error;
      }
    },

    async logout() {
      const refresh = session.getRefreshToken();
      if (refresh && (session.getAccessToken() || !session.isExpired(refresh))) {
        // Best effort: the session is cleared locally whatever the server answers.
        await http.post('/account/logout/', { refresh }).catch(() => undefined);
      }
      if (session.getAccessToken() || session.getRefreshToken() || account.getUser()) signOut();
      return LOGIN_PATH;
    },

    async checkAuth() {
      if (!hasUsableToken()) throw { redirectTo: LOGIN_PATH, message: false };
    },

    async checkError(error: unknown) {
      const status = isHttpError(error) ? error.status : (error as { status?: number } | null)?.status;
      if (status === 401) throw { redirectTo: LOGIN_PATH, message: false };
    },

    async getIdentity() {
      const user = account.getUser();
      if (!user) throw new Error('No user');
      return { id: user.id, fullName: userFullName(user), avatar: user.profile_avatar_url ?? undefined };
    },

    // No getPermissions: every check goes through canAccess (the permission API). With one, react-admin waited for
    // its query before computing its routes, then computed and registered its resources again when it settled,
    // re-rendering the console twice more, synchronously, while it mounted (bench/bundle README).

    async canAccess(params: { resource: string; action: string; record?: unknown }) {
      return permissions.canAccess(params);
    },
  };
}
