import { describe, expect, it } from 'vitest';
import { createFakeHttp } from '../testing/fakeHttp';
import { ALL_PAGE_SIZE, changedFields, createDataProvider } from './dataProvider';

describe('data provider', () => {
  it('getList sends page, page_size, ordering, search and filters; reads {count, results}', async () => {
    const http = createFakeHttp(() => ({ count: 42, next: null, previous: null, results: [{ id: 1 }] }));
    const dp = createDataProvider(http);
    const result = await dp.getList('members', {
      pagination: { page: 2, perPage: 10 },
      sort: { field: 'email', order: 'DESC' },
      filter: { q: 'ada', role_id: 'admin', empty: '' },
    });
    expect(result).toEqual({ data: [{ id: 1 }], total: 42 });
    expect(http.calls[0]).toMatchObject({
      method: 'GET',
      path: '/api/members/',
      options: { query: { page: 2, page_size: 10, ordering: '-email', search: 'ada', role_id: 'admin', empty: undefined } },
    });
  });

  it('getList accepts a bare array, ascending order and the "All" page size', async () => {
    const http = createFakeHttp(() => [{ id: 1 }, { id: 2 }]);
    const dp = createDataProvider(http);
    await expect(dp.getList('tags', { pagination: { page: 1, perPage: -1 }, sort: { field: 'name', order: 'ASC' }, filter: {} })).resolves.toEqual({
      data: [{ id: 1 }, { id: 2 }],
      total: 2,
    });
    expect(http.calls[0].options.query).toMatchObject({ page_size: ALL_PAGE_SIZE, ordering: 'name' });
  });

  it('maps getOne, create, update (changed fields only), delete to REST calls, with path overrides', async () => {
    const http = createFakeHttp((method, path, options) => {
      if (method === 'DELETE') return undefined;
      if (method === 'PATCH') return { id: 3, name: 'new', role: 'x' };
      if (method === 'POST') return { id: 9, ...(options.body as object) };
      return { id: 3, path };
    });
    const dp = createDataProvider(http, { resourcePaths: { team: '/api/members' } });
    await expect(dp.getOne('team', { id: 3 })).resolves.toEqual({ data: { id: 3, path: '/api/members/3/' } });
    await expect(dp.create('flows', { data: { name: 'f' } })).resolves.toEqual({ data: { id: 9, name: 'f' } });
    await dp.update('team', { id: 3, data: { id: 3, name: 'new', role: 'x' }, previousData: { id: 3, name: 'old', role: 'x' } });
    await expect(dp.delete('flows', { id: 9, previousData: { id: 9 } })).resolves.toEqual({ data: { id: 9 } });
    expect(http.calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'GET /api/members/3/',
      'POST /api/flows/',
      'PATCH /api/members/3/',
      'DELETE /api/flows/9/',
    ]);
    expect(http.calls[2].options.body).toEqual({ name: 'new' });
  });

  it('iterates for getMany, updateMany, deleteMany; getManyReference adds the target filter', async () => {
    const http = createFakeHttp((method, path) => (method === 'GET' && path !== '/api/rooms/' ? { id: Number(path.split('/')[3]) } : { count: 0, results: [] }));
    const dp = createDataProvider(http);
    await expect(dp.getMany('tags', { ids: [1, 2] })).resolves.toEqual({ data: [{ id: 1 }, { id: 2 }] });
    await expect(dp.updateMany('tags', { ids: [1, 2], data: { a: 1 } })).resolves.toEqual({ data: [1, 2] });
    await expect(dp.deleteMany('tags', { ids: [1] })).resolves.toEqual({ data: [1] });
    await dp.getManyReference('rooms', { target: 'page_id', id: 5, pagination: { page: 1, perPage: 25 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(http.calls.filter((c) => c.method === 'PATCH')).toHaveLength(2);
    expect(http.calls.at(-1)!.options.query).toMatchObject({ page_id: 5, page: 1, page_size: 25 });
  });

  it('runs plugin lifecycle callbacks', async () => {
    const http = createFakeHttp(() => ({ count: 1, results: [{ id: 1, first_name: 'Ada' }] }));
    const dp = createDataProvider(http, {
      callbacks: [{ resource: 'members', afterGetList: async (result) => ({ ...result, data: result.data.map((r) => ({ ...r, label: r.first_name })) }) }],
    });
    const { data } = await dp.getList('members', { pagination: { page: 1, perPage: 10 }, sort: { field: 'id', order: 'ASC' }, filter: {} });
    expect(data[0]).toMatchObject({ label: 'Ada' });
  });

  it('changedFields keeps only differing values', () => {
    expect(changedFields({ a: 1, b: [1], c: 'x' }, { a: 1, b: [2], c: 'x' })).toEqual({ b: [1] });
    expect(changedFields({ a: 1 })).toEqual({ a: 1 });
  });
});
