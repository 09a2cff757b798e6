/** The social SDKs behind socialApiRef (Facebook login and WhatsApp embedded signup, Google login). */
export { createSocialApi, resolveScriptUrl, type SocialApiDeps } from './socialApi';
export { createScriptLoader, defaultScriptLoader, SCRIPT_TIMEOUT_MS, type ScriptLoader, type SocialProvider } from './scriptLoader';
export {
  createClientConfigSource,
  fallbackClientConfig,
  normalizeClientConfig,
  CLIENT_CONFIG_PATH,
  DEFAULT_FACEBOOK_SDK_URL,
  DEFAULT_GOOGLE_SCRIPT_URL,
} from './clientConfig';
export { isFacebookOrigin, EMBEDDED_SIGNUP_IDS_GRACE_MS, type FacebookSdk, type FacebookLoginResponse } from './facebook';
export { GOOGLE_SCOPE, type GoogleIdentity, type GoogleTokenClientConfig } from './google';
