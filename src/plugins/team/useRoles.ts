import { useQuery } from '@tanstack/react-query';
import { httpApiRef, useAccount, useApi } from '../../core';
import { ROLE_IDS, ROLE_NAMES, type RoleId } from '../../../contract/permissions';
import type { Role } from '../../../contract/api';

const FALLBACK: Role[] = ROLE_IDS.map((id) => ({ id, name: ROLE_NAMES[id] }));

/** GET /api/roles/ (results) for the selected company; the contract's roles until it answers. */
export function useRoles(): Role[] {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const { data } = useQuery({
    queryKey: ['team', 'roles', companyId],
    queryFn: async () => (await http.get<{ results: Role[] }>('/api/roles/')).results,
    staleTime: 5 * 60_000,
    retry: false,
  });
  return data && data.length > 0 ? data : FALLBACK;
}

/** A role's display name from the roles list, else the contract's name. */
export function roleName(roles: Role[], id: RoleId | string): string {
  return roles.find((r) => r.id === id)?.name ?? ROLE_NAMES[id as RoleId] ?? id;
}
