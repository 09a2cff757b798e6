import { useEffect, useState } from 'react';
import type { TeamMember } from '../../../../contract/team';
import { httpApiRef, useAccess, useAccount, useApi } from '../../../core';

/**
 * The names of the selected company's admins, for members who may not connect WhatsApp themselves
 * (they are told whom to ask). Read only when the member may view the team (GET /api/members/ needs
 * it); null when unknown, so the page says "an admin" without names.
 */
export function useCompanyAdmins(enabled: boolean): string[] | null {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const { canView } = useAccess('members');
  const [admins, setAdmins] = useState<string[] | null>(null);

  useEffect(() => {
    setAdmins(null);
    if (!enabled || !canView) return undefined;
    let cancelled = false;
    http.get<{ results?: TeamMember[] } | null>('/api/members/', { query: { page: 1, page_size: 100, ordering: 'first_name' } }).then(
      (answer) => {
        if (cancelled) return;
        const names = (answer?.results ?? [])
          .filter((member) => member.role_id === 'admin' && !member.is_current_user)
          .map((member) => `${member.first_name} ${member.last_name}`.trim() || member.email);
        setAdmins(names.length ? names : null);
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [enabled, canView, http, companyId]);

  return admins;
}
