/**
 * Password hashing with scrypt (memory-hard, in node:crypto). The stored string carries
 * its own parameters and salt — `scrypt$N$r$p$salt$hash` — so the cost can be raised
 * later without breaking existing hashes. Verification is timing-safe.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 64;
const SALT_BYTES = 16;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
// Upper bound on parameters read back from storage, so a tampered row cannot make us allocate gigabytes.
const MAX_COST = 2 ** 20;

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, keyLength, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** Memory scrypt needs is 128·N·r bytes; give it headroom above Node's 32 MiB default. */
function maxmem(cost: number, blockSize: number): number {
  return 128 * cost * blockSize * 2;
}

export async function hashPassword(password: string, cost = 2 ** 15): Promise<string> {
  if (!Number.isInteger(Math.log2(cost)) || cost < 2 ** 10 || cost > MAX_COST) {
    throw new Error('scrypt cost must be a power of two between 2^10 and 2^20');
  }
  const salt = randomBytes(SALT_BYTES);
  const key = await scrypt(password, salt, KEY_LENGTH, { N: cost, r: BLOCK_SIZE, p: PARALLELISM, maxmem: maxmem(cost, BLOCK_SIZE) });
  return ['scrypt', cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, saltB64, keyB64] = parts;
  const cost = Number(n);
  const blockSize = Number(r);
  const parallelism = Number(p);
  if (![cost, blockSize, parallelism].every(Number.isInteger) || cost > MAX_COST || blockSize > 32 || parallelism > 16) {
    return false;
  }
  const expected = Buffer.from(keyB64, 'base64');
  if (expected.length === 0) return false;
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: cost,
    r: blockSize,
    p: parallelism,
    maxmem: maxmem(cost, blockSize),
  });
  return timingSafeEqual(actual, expected);
}

/**
 * A stored value that no password verifies (not an scrypt string): accounts created by social
 * sign-in have no password until the user sets one through a password reset.
 */
export function unusablePasswordHash(): string {
  return `!unusable$${randomBytes(SALT_BYTES).toString('base64')}`;
}

/** Whether a stored value is a real hash (false for unusablePasswordHash()). */
export function isUsablePasswordHash(stored: string): boolean {
  return stored.startsWith('scrypt$');
}

/** Cost parameter of a stored hash, to detect hashes that should be upgraded on login. */
export function hashCost(stored: string): number | null {
  const parts = stored.split('$');
  return parts[0] === 'scrypt' ? Number(parts[1]) : null;
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification; used when the e-mail is unknown so that
 * login answers take as long for missing accounts as for wrong passwords.
 */
export async function verifyAgainstDummy(password: string, cost: number): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing', cost);
  await verifyPassword(password, await dummyHash);
  return false;
}
