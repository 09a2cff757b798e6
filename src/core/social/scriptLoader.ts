import { SocialSdkUnavailableError } from '../apis';

/** How long a provider's script may take to load before it counts as unavailable (offline, blocked). */
export const SCRIPT_TIMEOUT_MS = 15_000;

export type SocialProvider = 'facebook' | 'google';

/** Loads third-party scripts: one `<script>` per URL, reused by later calls. */
export interface ScriptLoader {
  /** Resolves once the script has loaded; rejects with SocialSdkUnavailableError after an error or the timeout. */
  load(url: string, provider: SocialProvider): Promise<void>;
}

/**
 * A loader over `document`: one async `<script>` per URL. A load in flight or done is shared; a
 * failed one (error, timeout) removes its element so a later call (the page's retry) tries again.
 */
export function createScriptLoader(options: { document?: Document; timeoutMs?: number } = {}): ScriptLoader {
  const loads = new Map<string, Promise<void>>();
  const timeoutMs = options.timeoutMs ?? SCRIPT_TIMEOUT_MS;

  return {
    load(url, provider) {
      const existing = loads.get(url);
      if (existing) return existing;
      const doc = options.document ?? document;
      const promise = new Promise<void>((resolve, reject) => {
        const script = doc.createElement('script');
        script.src = url;
        script.async = true;
        script.defer = true;
        script.dataset.socialSdk = provider;
        const finish = (error: SocialSdkUnavailableError | null) => {
          clearTimeout(timer);
          script.removeEventListener('load', onLoad);
          script.removeEventListener('error', onError);
          if (!error) return resolve();
          loads.delete(url);
          script.remove();
          reject(error);
        };
        const onLoad = () => finish(null);
        const onError = () => finish(new SocialSdkUnavailableError(provider, `Could not load ${url}`));
        const timer = setTimeout(
          () => finish(new SocialSdkUnavailableError(provider, `Timed out after ${timeoutMs} ms loading ${url}`)),
          timeoutMs,
        );
        script.addEventListener('load', onLoad);
        script.addEventListener('error', onError);
        (doc.head ?? doc.body ?? doc.documentElement).appendChild(script);
      });
      loads.set(url, promise);
      return promise;
    },
  };
}

/** The console's shared loader (one per page, so every console instance reuses the same elements). */
export const defaultScriptLoader: ScriptLoader = createScriptLoader();
