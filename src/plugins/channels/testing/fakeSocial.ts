import type { SocialApi } from '../../../core';

/** A SocialApi whose Facebook login answers `login()` (resolve a token or throw); the rest is unused here. */
export function createFakeSocial(login: () => Promise<string> | string = () => 'user-token'): SocialApi & { logins: string[] } {
  const logins: string[] = [];
  return {
    logins,
    clientConfig: async () => ({ facebook: null, google: null }),
    facebookLogin: async (scopes) => {
      logins.push(scopes);
      return login();
    },
    facebookEmbeddedSignup: async () => {
      throw new Error('not used by the channels page');
    },
    googleLogin: async () => {
      throw new Error('not used by the channels page');
    },
  };
}
