import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger, registerRequestLogging } from './requestLogger';

function capturedLogger(level = 'info') {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level }, stream), lines };
}

async function appWith(level = 'info') {
  const { logger, lines } = capturedLogger(level);
  const app = Fastify({ loggerInstance: logger as FastifyBaseLogger, logController: new LogController({ disableRequestLogging: true }) });
  registerRequestLogging(app);
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/talks', async (request) => {
    request.log.warn({ why: 'test' }, 'something to say');
    return { ok: true };
  });
  await app.ready();
  return { app, lines };
}

describe('the request log', () => {
  it('writes one line per request with its id, method, url, status and time', async () => {
    const { app, lines } = await appWith();
    const res = await app.inject({ method: 'GET', url: '/quiet?x=1' });
    expect(res.statusCode).toBe(200);
    const completed = lines.filter((l) => l.msg === 'request completed');
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({ level: 30, reqId: 'req-1', req: { method: 'GET', url: '/quiet?x=1' }, res: { statusCode: 200 } });
    expect(typeof completed[0].responseTime).toBe('number');
    await app.close();
  });

  it("binds the request's id to what a handler logs through request.log", async () => {
    const { app, lines } = await appWith();
    await app.inject({ method: 'GET', url: '/quiet' });
    await app.inject({ method: 'GET', url: '/talks' });
    const said = lines.find((l) => l.msg === 'something to say');
    expect(said).toMatchObject({ level: 40, reqId: 'req-2', why: 'test' });
    await app.close();
  });

  it('writes nothing below its level', async () => {
    const { app, lines } = await appWith('warn');
    await app.inject({ method: 'GET', url: '/quiet' });
    expect(lines).toHaveLength(0);
    await app.close();
  });
});

describe('lazyRequestLogger', () => {
  it('makes the pino child only when the request logs, once', () => {
    const { logger, lines } = capturedLogger();
    const child = vi.spyOn(logger, 'child');
    const log = lazyRequestLogger(logger, { reqId: 'r1' }, {});
    expect(log.level).toBe('info');
    expect(child).not.toHaveBeenCalled();
    log.info('one');
    log.error({ n: 2 }, 'two');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.reqId, l.level, l.msg])).toEqual([
      ['r1', 30, 'one'],
      ['r1', 50, 'two'],
    ]);
  });

  it("answers a route's own level and lets it be changed", () => {
    const { logger, lines } = capturedLogger();
    const log = lazyRequestLogger(logger, { reqId: 'r2' }, { level: 'error' });
    expect(log.level).toBe('error');
    log.level = 'debug';
    log.debug('now heard');
    expect(log.level).toBe('debug');
    expect(lines.map((l) => l.msg)).toEqual(['now heard']);
  });
});
