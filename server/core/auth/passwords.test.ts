import { describe, expect, it } from 'vitest';
import { hashCost, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords';
import { isCommonPassword, COMMON_PASSWORDS } from './commonPasswords';
import { PASSWORD_MESSAGES, passwordProblems } from './passwordPolicy';

const COST = 2 ** 12;

describe('password hashing', () => {
  it('stores scrypt parameters and a salt, and verifies the right password only', async () => {
    const stored = await hashPassword('Correct-Horse-9', COST);
    expect(stored).toMatch(/^scrypt\$4096\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(await verifyPassword('Correct-Horse-9', stored)).toBe(true);
    expect(await verifyPassword('correct-horse-9', stored)).toBe(false);
    expect(hashCost(stored)).toBe(COST);
  });

  it('salts every hash differently', async () => {
    const [a, b] = await Promise.all([hashPassword('same-password', COST), hashPassword('same-password', COST)]);
    expect(a).not.toBe(b);
  });

  it('verifies hashes made with another cost (parameters come from the stored string)', async () => {
    const stored = await hashPassword('Upgrade-Me-123', 2 ** 13);
    expect(await verifyPassword('Upgrade-Me-123', stored)).toBe(true);
  });

  it('refuses malformed or tampered hashes without throwing', async () => {
    expect(await verifyPassword('x', 'plain-text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$99999999$8$1$c2FsdA==$aGFzaA==')).toBe(false);
    expect(await verifyPassword('x', 'bcrypt$4096$8$1$c2FsdA==$aGFzaA==')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$4096$8$1$c2FsdA==$')).toBe(false);
  });

  it('rejects unusable cost parameters', async () => {
    await expect(hashPassword('x', 1000)).rejects.toThrow();
    await expect(hashPassword('x', 2 ** 8)).rejects.toThrow();
  });

  it('the dummy verification never succeeds', async () => {
    expect(await verifyAgainstDummy('dummy-password-for-timing', COST)).toBe(false);
  });
});

describe('password policy', () => {
  it('has a few hundred lower-case common passwords', () => {
    expect(COMMON_PASSWORDS.size).toBeGreaterThan(300);
    for (const p of COMMON_PASSWORDS) expect(p).toBe(p.toLowerCase());
  });

  it('compares common passwords case-insensitively', () => {
    expect(isCommonPassword('Password123')).toBe(true);
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
    expect(isCommonPassword('Correct-Horse-Battery-9')).toBe(false);
  });

  it('reports length, commonness and all-digit passwords', () => {
    expect(passwordProblems('short')).toContain(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblems('password1')).toEqual([PASSWORD_MESSAGES.tooCommon]);
    expect(passwordProblems('73829164')).toEqual([PASSWORD_MESSAGES.entirelyNumeric]);
    expect(passwordProblems('12345678')).toEqual([PASSWORD_MESSAGES.tooCommon, PASSWORD_MESSAGES.entirelyNumeric]);
    expect(passwordProblems('Demo-Console-2026')).toEqual([]);
  });
});
