/** The console core: DI, core APIs and their implementations, plugin contract, routing guards, shell and hooks. */
export * from './apis';
export { createApiRef, createApiFactory, ApiRegistry, type ApiRef, type ApiFactory } from './di/apiRef';
export { ApiProvider, useApi, useApiRegistry } from './di/ApiProvider';
export { registerCoreApis, type CoreApiOptions, type DataResourceConfig } from './coreApis';

export { createPlugin } from './plugins/types';
export type { ConsolePlugin, PluginRoute, PluginResource, MenuEntry, AppBarItem, FeatureRequirement, DashboardWidget, Messages, TranslationLoaders } from './plugins/types';
export { createConsole, overrideApi, type Console, type ConsoleOptions, type ApiOverride } from './plugins/createConsole';
export { ConsoleProvider, useConsole } from './plugins/ConsoleContext';

export { createConfig, APP_VERSION, APP_ENVIRONMENT } from './config/config';
export { createSessionStore, isTokenExpired, decodeTokenExpiry, TOKEN_EXPIRY_MARGIN_MS } from './session/sessionStore';
export { createAccountStore } from './account/accountStore';
export { reloadUser } from './account/accountRefresh';
export { useAccount, type AccountSnapshot } from './account/useAccount';
export { useSelectCompany } from './account/useSelectCompany';
export { HttpError, isHttpError } from './http/HttpError';
export { createHttpProvider } from './http/httpProvider';
export { createAuthProvider, chooseCompany } from './auth/authProvider';
export { createPermissionProvider } from './permissions/permissionProvider';
export { resourceAccess } from './permissions/resourceAccess';
export { useAccess } from './permissions/useAccess';
export { createFeatureFlags, featureSatisfied } from './features/featureFlags';
export { useFeature } from './features/useFeature';
export { createAlertApi, SNACKBAR_TIMEOUT_MS } from './alert/alertApi';
export { useAlert, useAlertState } from './alert/useAlert';
export { AlertHost } from './alert/AlertHost';
export { ConsoleNotification } from './alert/ConsoleNotification';
export { createI18nApi, LOCALES } from './i18n/i18n';
export { dateTimeFormat, formatDate, prewarmDateFormats } from './i18n/dates';
export { createDataProvider, createBaseDataProvider, ALL_PAGE_SIZE, type DataProviderOptions } from './data/dataProvider';
export { createRealtimeFactory, socketEndpoint } from './realtime/realtimeFactory';
export { createSocialApi, createScriptLoader, fallbackClientConfig, resolveScriptUrl, type ScriptLoader } from './social';
export { safeUrl } from './url/safeUrl';
export { required, email, minLength, maxLength, ruleMessage, translateRule, validateOnChangeAndBlur } from './validation';

export { EmptyView } from './components/EmptyView';
export { FullWidthTabs, type FullWidthTab } from './components/FullWidthTabs';
export { PageLoading } from './components/PageLoading';
export { visuallyHidden } from './components/visuallyHidden';
export { MdiIcon, mdiIconComponent } from './components/MdiIcon';
export { ConsolePagination, TABLE_PAGE_SIZES } from './components/ConsolePagination';
export { lightTheme, darkTheme, BRAND, withMotionPreference, statusTextColor } from './theme/theme';
export { ConsoleLayout } from './layout/ConsoleLayout';
export { ErrorPageBoundary } from './layout/ErrorPageBoundary';
export { ConsoleMenu, useVisibleMenu } from './layout/ConsoleMenu';
export { ConsoleAppBar } from './layout/ConsoleAppBar';
export { NotFound } from './layout/NotFound';
export { CompanySwitcher } from './layout/CompanySwitcher';
export { RedirectSignedIn, RequireLogin, RequireSession, FeatureGate, AccessGuard, LOGIN_ROUTE, COMPANY_SELECT_ROUTE } from './routing/guards';
export { NavigationMemoryProvider } from './routing/NavigationMemory';
export { NavigationEffects } from './routing/NavigationEffects';
export { shellRouteElements, noLayoutRouteElements } from './routing/pluginRoutes';
export { lazyPage, type LazyPage } from './routing/lazyPage';
export { PluginStrings } from './routing/PluginStrings';
export { routeAreaFor, fallbackPath, pathAfterCompanySwitch, loadedAreas, isServedPath } from './routing/routeAccess';
export { ROUTE_PATHS, type RouteName } from './routing/routeNames';

// Shared form and company widgets used by pages and plugins.
export { CompanyAvatar } from './components/CompanyAvatar';
export { LogoInput } from './components/LogoInput';
export { readLogoFile } from './components/readLogoFile';
export { errorBody, errorText } from './forms/errorText';
export { firstFailing } from './forms/firstFailing';
export { matchesField } from './forms/matchesField';
export { EmailInput, NewPasswordInputs } from './forms/fields';
export { SubmitButton } from './components/SubmitButton';
export { ConfirmDialog } from './components/ConfirmDialog';
