/**
 * Who sees which contacts: a member who may view chats sees the company's contacts, except a member
 * limited to their own rooms (spec §6's agent feature: an agent sees only rooms tagged with their
 * e-mail), who sees only the contacts of those rooms. The chat service says who is limited.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { RoleId } from '../../../contract/permissions';
import { contacts } from './schema';

export interface ContactActor {
  companyId: number;
  userId: number;
  email: string;
  role: RoleId;
}

/** The chat service's answer: the e-mail a limited member's rooms are tagged with, else null. */
export type RestrictedEmail = (actor: ContactActor) => Promise<string | null>;

/** The contacts a limited member sees: one of its rooms carries their agent tag. */
export function ownRoomsCondition(email: string): SQL {
  return sql`exists (
    select 1 from contact_rooms cr
    join room_tags rt on rt.room_id = cr.room_id
    join tags t on t.id = rt.tag_id
    where cr.contact_id = ${contacts.id} and lower(t.name) = ${email.toLowerCase()})`;
}
