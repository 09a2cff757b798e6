import { describe, expect, it } from 'vitest';
import { browserOrigin } from './browserOrigin';

const at = (host: string | undefined, protocol: 'http' | 'https' = 'http') => ({ host: host as string, protocol });

describe('browserOrigin', () => {
  it("is the browser's origin on one of this server's loopback names, on any port", () => {
    expect(browserOrigin(at('127.0.0.1:3000'), 'http://localhost:3000')).toBe('http://127.0.0.1:3000');
    expect(browserOrigin(at('LOCALHOST:5173', 'https'), 'http://localhost:3000')).toBe('https://localhost:5173');
    expect(browserOrigin(at('[::1]:3000'), 'https://console.example.com')).toBe('http://[::1]:3000');
  });

  it("is PUBLIC_URL's origin, with its scheme, for PUBLIC_URL's own host (with or without its default port)", () => {
    expect(browserOrigin(at('console.example.com'), 'https://console.example.com/')).toBe('https://console.example.com');
    expect(browserOrigin(at('console.example.com:443'), 'https://console.example.com')).toBe('https://console.example.com');
  });

  it('is PUBLIC_URL for any other name, a malformed Host or none', () => {
    for (const host of ['evil.test', 'console.example.com.evil.test', 'console.example.com:8443', 'a@127.0.0.1', '127.0.0.1/x', 'evil.test#127.0.0.1', '', undefined]) {
      expect(browserOrigin(at(host), 'https://console.example.com'), String(host)).toBe('https://console.example.com');
    }
  });
});
