import type { HttpProvider, RequestOptions } from '../apis';

export interface FakeCall {
  method: string;
  path: string;
  options: RequestOptions;
}

/** An in-memory HttpProvider for tests: `handler` answers each call (throw to fail it); calls are recorded. */
export function createFakeHttp(
  handler: (method: string, path: string, options: RequestOptions) => unknown,
): HttpProvider & { calls: FakeCall[] } {
  const calls: FakeCall[] = [];
  const request = async <T,>(method: string, path: string, options: RequestOptions = {}): Promise<T> => {
    calls.push({ method, path, options });
    return (await handler(method, path, options)) as T;
  };
  return {
    calls,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, body, options) => request('POST', path, { ...options, body }),
    put: (path, body, options) => request('PUT', path, { ...options, body }),
    patch: (path, body, options) => request('PATCH', path, { ...options, body }),
    delete: (path, options) => request('DELETE', path, options),
  };
}

/** The calls a page made itself: the social sign-in buttons also read GET /api/client-config/ (which providers to offer). */
export function withoutClientConfig(calls: FakeCall[]): FakeCall[] {
  return calls.filter((call) => call.path !== '/api/client-config/');
}
