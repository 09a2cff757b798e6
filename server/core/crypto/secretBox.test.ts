import { describe, expect, it } from 'vitest';
import { SecretBox, SecretBoxError } from './secretBox';

const key = Buffer.alloc(32, 7).toString('base64');
const otherKey = Buffer.alloc(32, 9).toString('base64');

describe('SecretBox (AES-256-GCM)', () => {
  it('seals to v1:<iv>:<tag>:<ciphertext> in base64url and opens it again', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('EAAG-page-token-éè');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('EAAG');
    expect(box.open(sealed)).toBe('EAAG-page-token-éè');
    // A fresh IV each time: the same secret never seals to the same text.
    expect(box.seal('same')).not.toBe(box.seal('same'));
    expect(box.open(box.seal(''))).toBe('');
  });

  it('throws when the sealed text is altered, truncated, of another version or sealed with another key', () => {
    const box = new SecretBox(key);
    const sealed = box.seal('secret token');
    const [v, iv, tag, data] = sealed.split(':');
    const flip = (s: string) => (s[0] === 'A' ? 'B' : 'A') + s.slice(1);
    expect(() => box.open([v, iv, tag, flip(data)].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open([v, iv, flip(tag), data].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open([v, flip(iv), tag, data].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open(['v2', iv, tag, data].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open([v, iv, tag].join(':'))).toThrow(SecretBoxError);
    expect(() => box.open('secret token')).toThrow(SecretBoxError);
    expect(() => new SecretBox(otherKey).open(sealed)).toThrow(SecretBoxError);
    expect(box.openOrNull(null)).toBeNull();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => new SecretBox('')).toThrow(SecretBoxError);
  });
});
