/**
 * Secrets at rest (provider tokens, the WhatsApp registration PIN): AES-256-GCM with
 * config.channelSecretKey (32 bytes, base64). Sealed format, versioned so the key or the
 * algorithm can change later: `v1:<iv>:<tag>:<ciphertext>`, each part base64url.
 * A wrong key or any change to the sealed text throws (GCM authenticates it).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export class SecretBox {
  private readonly key: Buffer;

  /** `key`: 32 bytes in base64 (or base64url), as config.channelSecretKey holds it. */
  constructor(key: string) {
    const bytes = Buffer.from(key.trim(), 'base64');
    if (bytes.length !== 32) throw new SecretBoxError('The channel secret key must be 32 bytes (base64).');
    this.key = bytes;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join(':');
  }

  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('Unknown sealed secret format.');
    const [, ivText, tagText, dataText] = parts;
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('Malformed sealed secret.');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('The sealed secret was altered or sealed with another key.');
    }
  }

  /** open() for nullable columns. */
  openOrNull(sealed: string | null | undefined): string | null {
    return sealed ? this.open(sealed) : null;
  }
}
