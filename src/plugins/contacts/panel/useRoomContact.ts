/**
 * The contact of an inbox room, live: GET /api/rooms/{id}/contact/ (the server links the room to its
 * contact, or makes one, when it has none), then the `contact:{id}` topic keeps it current for everyone
 * watching (contact_updated carries the contact without its rooms, which stay as this member sees them).
 */
import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CONTACT_EVENTS, contactTopic, type Contact, type ContactPatch } from '../../../../contract/contacts';
import { httpApiRef, realtimeApiRef, useAccount, useApi } from '../../../core';

const key = (companyId: number | null, roomId: number) => ['contacts', 'room', companyId, roomId];

export function useRoomContact(roomId: number) {
  const http = useApi(httpApiRef);
  const realtime = useApi(realtimeApiRef);
  const { companyId } = useAccount();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: key(companyId, roomId),
    queryFn: ({ signal }) => http.get<Contact>(`/api/rooms/${roomId}/contact/`, { signal }),
    enabled: companyId != null,
    retry: false,
  });
  const contactId = query.data?.id;

  useEffect(() => {
    if (!contactId || !companyId) return;
    const socket = realtime.createSocket();
    socket.connect();
    const channel = socket.channel(contactTopic(contactId), {});
    channel.on(CONTACT_EVENTS.updated, (payload: { contact?: Omit<Contact, 'rooms'> }) => {
      if (!payload?.contact) return;
      queryClient.setQueryData<Contact>(key(companyId, roomId), (current) => (current ? { ...current, ...payload.contact, rooms: current.rooms } : current));
    });
    channel.on(CONTACT_EVENTS.deleted, () => void queryClient.invalidateQueries({ queryKey: key(companyId, roomId) }));
    channel.join();
    return () => {
      channel.leave();
      socket.disconnect();
    };
  }, [realtime, queryClient, companyId, roomId, contactId]);

  /** PATCH the contact; the answer replaces what is shown (the push reaches the others). */
  const update = async (patch: ContactPatch) => {
    if (!contactId) return;
    const next = await http.patch<Contact>(`/api/contacts/${contactId}/`, patch);
    // The PATCH answers the contact without its broadcasts (only the one contact's GET has them): keep those shown.
    queryClient.setQueryData<Contact>(key(companyId, roomId), (current) => ({ ...next, broadcasts: next.broadcasts ?? current?.broadcasts }));
  };
  return { ...query, update };
}
