/** Builds unsigned JWT-shaped tokens for tests (the console never verifies signatures). */
export function fakeJwt(expSeconds: number, extra: Record<string, unknown> = {}): string {
  const encode = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ sub: '1', exp: expSeconds, ...extra })}.signature`;
}

/** A token valid for `seconds` from now. */
export function tokenValidFor(seconds: number, now: number = Date.now()): string {
  return fakeJwt(Math.floor(now / 1000) + seconds);
}
