import { describe, expect, it } from 'vitest';
import { membership } from '../../../core/account/testUsers';
import { filterCompanies } from './filterCompanies';

describe('filterCompanies', () => {
  const companies = [membership(1, {}, { name: 'Demo Company' }), membership(2, {}, { name: 'Northwind Shop' })];

  it('matches the name case-insensitively', () => {
    expect(filterCompanies(companies, 'NORTH').map((c) => c.id)).toEqual([2]);
    expect(filterCompanies(companies, 'demo c').map((c) => c.id)).toEqual([1]);
  });

  it('keeps every company for an empty term', () => {
    expect(filterCompanies(companies, '  ')).toHaveLength(2);
  });

  it('finds nothing when no name matches', () => {
    expect(filterCompanies(companies, 'acme')).toEqual([]);
  });
});
