import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../core';
import { createFakeHttp } from '../../../core/testing/fakeHttp';
import { createFlowService, creationPayload } from './flowService';
import { flowErrorAlert } from './errors';
import type { BotServiceApi } from '../../bots';

describe('flow error alerts (spec §8)', () => {
  it("'Error ' + the server's error value, then the server message in parentheses", () => {
    const error = new HttpError(400, { errors: [], error: 'Invalid flow_name', message: 'This field may not be blank.' });
    expect(flowErrorAlert('create', error)).toBe('Error Invalid flow_name(This field may not be blank.)');
    expect(flowErrorAlert('update', error)).toBe('Error Invalid flow_name(This field may not be blank.)');
    expect(flowErrorAlert('delete', new HttpError(409, { error: 'Conflict', message: 'Busy.' }))).toBe('Error Conflict(Busy.)');
  });
  it("without a server error value: 'saving flow' / 'updating flow' / 'deleting flow', then the error's own message", () => {
    expect(flowErrorAlert('create', new Error('Network down'))).toBe('Error saving flow(Network down)');
    expect(flowErrorAlert('update', new Error('Network down'))).toBe('Error updating flow(Network down)');
    expect(flowErrorAlert('delete', new Error('Network down'))).toBe('Error deleting flow(Network down)');
  });
  it("without any message: 'An error occurred'", () => {
    expect(flowErrorAlert('create', {})).toBe('Error saving flow(An error occurred)');
    expect(flowErrorAlert('update', new Error(''))).toBe('Error updating flow(An error occurred)');
    expect(flowErrorAlert('delete', null)).toBe('Error deleting flow(An error occurred)');
  });
});

describe('flow client', () => {
  const bots = { integration: async () => ({ endpoint: '/bot-service', access_key: 'secret' }) } as unknown as BotServiceApi;
  const config = { botServiceUrl: '/bot-service' } as never;

  it("DELETE of a flow without id fails locally with 'Flow name is undefined' (nothing sent)", async () => {
    const http = createFakeHttp(() => undefined);
    const service = createFlowService({ http, bots, config });
    const error = await service.deleteFlow({}).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Flow name is undefined');
    expect(flowErrorAlert('delete', error)).toBe('Error deleting flow(Flow name is undefined)');
    expect(http.calls).toEqual([]);
  });

  it('sends only the five creation fields, to the bot service with the access key; DELETE /api/flows/{id} without slash', async () => {
    const http = createFakeHttp((method, path, options) => ({ method, path, options }));
    const service = createFlowService({ http, bots, config });
    await service.createFlow({ ...creationPayload({ flow_name: 'A', description: 'B', company_name: 'C', company_domain: 'd.test', extra_context: ['x'] }), ...({ intro_msg: 'no', steps: [] } as object) });
    expect(http.calls[0].options.body).toEqual({ flow_name: 'A', description: 'B', company_name: 'C', company_domain: 'd.test', extra_context: ['x'] });
    expect(http.calls[0].options).toMatchObject({ baseUrl: '/bot-service', auth: false, query: { access_key: 'secret' } });
    await service.deleteFlow({ id: 4 });
    expect(http.calls[1]).toMatchObject({ method: 'DELETE', path: '/api/flows/4' });
  });
});
