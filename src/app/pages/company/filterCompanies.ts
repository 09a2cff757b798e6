import type { CompanyMembership } from '../../../../contract/api';

/** Companies whose name contains `term`, compared case-insensitively (spec §2). */
export function filterCompanies(companies: CompanyMembership[], term: string): CompanyMembership[] {
  const wanted = term.trim().toLowerCase();
  if (!wanted) return companies;
  return companies.filter((company) => company.name.toLowerCase().includes(wanted));
}
