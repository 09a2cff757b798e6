/**
 * Which media is private and how a message's media_url is handed out.
 *
 * Chat attachments (the console's uploads, `chats/<company>/<random>/<name>`, and media received
 * from Meta, `chats/<company>/inbound/<uuid>.<ext>`; `chat/<company>/…` from before) are customer
 * data: their plain URL serves nothing (403). Message rows keep the plain URL, and every API answer
 * and socket push carrying the message replaces it with a short-lived signed URL minted at read time
 * (MediaStorage.readUrl), but only for the company the key belongs to. Avatars and company logos
 * are public. docs/architecture.md (Media) records the decision.
 */
import type { MediaStorage } from './types';

const PRIVATE_KEY = /^chats?\/(\d{1,9})\//;

/** The company a private key belongs to, or null for a public key. */
export function companyOfPrivateKey(key: string): number | null {
  const m = PRIVATE_KEY.exec(key);
  return m ? Number(m[1]) : null;
}

export function isPrivateMediaKey(key: string): boolean {
  return PRIVATE_KEY.test(key);
}

/**
 * A message's stored media_url as the company's members (and its simulator) receive it: our own
 * private object of that company → a signed URL; any other URL (another site's, a public object's)
 * as it is. A key of another company is never signed: its plain URL serves nothing.
 */
export function mediaUrlForCompany(storage: MediaStorage, storedUrl: string | null, companyId: number): string | null {
  if (!storedUrl) return storedUrl;
  const key = storage.keyOfUrl(storedUrl);
  if (key === null || companyOfPrivateKey(key) !== companyId) return storedUrl;
  return storage.readUrl(key);
}

/** What a row stores for a media_url given by a client: our own object's URL without a signature (signatures are minted when read). */
export function storedMediaUrl(storage: MediaStorage, url: string | null | undefined): string | null {
  if (!url) return url ?? null;
  return storage.keyOfUrl(url) === null ? url : url.replace(/[?#].*$/s, '');
}
