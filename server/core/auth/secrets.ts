/** Random link tokens and their at-rest hashes. */
import { createHash, randomBytes } from 'node:crypto';

/** 256 bits of randomness, URL-safe: for reset, verification and invite links. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Tokens are stored hashed: a high-entropy token needs no salt or slow hash, SHA-256 suffices. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
