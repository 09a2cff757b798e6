import { describe, expect, it } from 'vitest';
import { securityHeaders } from './securityHeaders';

describe('securityHeaders', () => {
  it("are helmet's, worked out once: the CSP from its directives, HSTS only when not turned off, no X-Powered-By", () => {
    const headers = securityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], imgSrc: ["'self'", 'data:'] } }, strictTransportSecurity: false });
    expect(headers['content-security-policy']).toBe("default-src 'self';img-src 'self' data:");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['strict-transport-security']).toBeUndefined();
    expect(headers['x-powered-by']).toBeUndefined();
    expect(securityHeaders({})['strict-transport-security']).toMatch(/^max-age=/);
  });

  it('refuses an invalid directive at start, as helmet does', () => {
    expect(() => securityHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"], 'bad name!': ['x'] } } })).toThrow();
  });
});
