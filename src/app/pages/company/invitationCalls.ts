import type { HttpProvider } from '../../../core/apis';
import type { InvitationAccepted, PendingInvitation } from '../../../../contract/team';

/** The signed-in user's own invitations (no Company header needed: the user may have no company yet). */
export const invitationCalls = {
  list: async (http: HttpProvider): Promise<PendingInvitation[]> =>
    (await http.get<{ results: PendingInvitation[] }>('/api/invitations/')).results ?? [],
  accept: (http: HttpProvider, id: number) => http.post<InvitationAccepted>(`/api/invitations/${id}/accept/`, {}),
  decline: (http: HttpProvider, id: number) => http.post<{ detail: string }>(`/api/invitations/${id}/decline/`, {}),
};
