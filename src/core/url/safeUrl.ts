/**
 * The one check before the console uses a URL that came from outside (a message's media_url, a
 * customer's link) as a link `href` or a media `src`: only http(s) URLs and same-origin paths pass.
 * `javascript:`, `data:`, `vbscript:`, `file:`, `blob:` and anything unparsable give null, and the
 * caller renders the value as plain text instead.
 */
const SAFE_PROTOCOLS = new Set(['http:', 'https:']);

function currentOrigin(): string {
  return typeof window !== 'undefined' && window.location?.origin && window.location.origin !== 'null' ? window.location.origin : 'http://localhost';
}

/** The URL (absolute, resolved against the console's origin) when it may be a link or a media source, else null. */
export function safeUrl(value: string | null | undefined, base: string = currentOrigin()): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
}
