/**
 * Conversations a team can work in (issue #22, first part): a room's status (open, pending, snoozed,
 * resolved), its snooze and its one assignee, over REST and the inbox's socket.
 *
 *   GET   /api/rooms/?status=&assignee=&search=&page=&page_size=&pages=   RoomListResponse (newest activity first)
 *   GET   /api/rooms/counts/?pages=                                        RoomCounts (every status × mine/unassigned/all)
 *   PATCH /api/rooms/{id}/  RoomUpdateBody                                  the room; pushed as room_info on room:{id} and page:{channel}
 *
 * Rules: a customer message re-opens a resolved, snoozed or pending room; a snooze ends by itself at
 * snoozed_until; a bot's or flow's hand-over opens the room. Assignment keeps the agent tags (spec §5)
 * in step: assigning adds the assignee's e-mail tag and removes every other agent tag; adding a member's
 * e-mail tag assigns that member, removing the assignee's tag unassigns.
 */
import { z } from 'zod';
import type { Room } from './chats';
import { invalidChoiceMessage, pageQuery, type TeamMember } from './team';

export const ROOM_STATUSES = ['open', 'pending', 'snoozed', 'resolved'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];
/** The list's status filter: one status, or every room. */
export const ROOM_STATUS_FILTERS = [...ROOM_STATUSES, 'all'] as const;
export type RoomStatusFilter = (typeof ROOM_STATUS_FILTERS)[number];
/** The list shows open rooms unless asked otherwise (the console's default view too). */
export const DEFAULT_ROOM_STATUS_FILTER: RoomStatusFilter = 'open';
/** The list's assignee filter: the caller's rooms, unassigned ones, or one member's (by user id). */
export type RoomAssigneeFilter = 'me' | 'none' | number;
/** The console's tabs: Mine, Unassigned, All. */
export const ROOM_TABS = ['mine', 'unassigned', 'all'] as const;
export type RoomTab = (typeof ROOM_TABS)[number];

/** Who a room is assigned to (a member of its company). */
export interface RoomAssignee {
  id: number;
  first_name: string;
  email: string;
}

/** Rooms whose last message is older than this were migrated as resolved. */
export const MIGRATED_RESOLVED_AFTER_DAYS = 7;

const statusField = z.enum(ROOM_STATUSES, { error: (issue) => invalidChoiceMessage(issue.input) });
const statusFilterField = z.enum(ROOM_STATUS_FILTERS, { error: (issue) => invalidChoiceMessage(issue.input) });
/** `me`, `none` or a user id. */
const assigneeFilterField = z
  .string()
  .trim()
  .regex(/^(me|none|\d{1,9})$/, 'Enter me, none or a user id.')
  .transform((v): RoomAssigneeFilter => (v === 'me' || v === 'none' ? v : Number(v)));
/** Channel ids, comma-separated (`pages=3,4`): the console's channel filter. */
const pageIdsField = z
  .string()
  .trim()
  .max(1100)
  .regex(/^\d{1,9}(,\d{1,9}){0,99}$/, 'Enter channel ids separated by commas.')
  .transform((v) => v.split(',').map(Number));

export const ROOM_LIST_MAX_PAGE_SIZE = 100;

export const RoomListQuery = z.object({
  status: statusFilterField.default(DEFAULT_ROOM_STATUS_FILTER),
  assignee: assigneeFilterField.optional(),
  search: z.string().trim().max(200).default(''),
  page: z.coerce.number().int('A valid integer is required.').min(1, 'Invalid page.').max(1_000_000, 'Invalid page.').default(1),
  page_size: z.coerce
    .number()
    .int('A valid integer is required.')
    .min(1, 'Ensure this value is greater than or equal to 1.')
    .max(ROOM_LIST_MAX_PAGE_SIZE, `Ensure this value is less than or equal to ${ROOM_LIST_MAX_PAGE_SIZE}.`)
    .default(30),
  pages: pageIdsField.optional(),
});
export type RoomListQuery = z.input<typeof RoomListQuery>;

export const RoomCountsQuery = z.object({ pages: pageIdsField.optional() });

export interface RoomListResponse {
  count: number;
  next: string | null;
  previous: string | null;
  results: Room[];
}

/** Per status, how many rooms are the caller's, unassigned, and in all (what the caller may see). */
export type RoomCounts = Record<RoomStatus, Record<RoomTab, number>>;

export const SNOOZE_IN_PAST_MESSAGE = 'Ensure the snooze ends in the future.';
export const SNOOZE_WITHOUT_SNOOZED_MESSAGE = 'Only a snoozed room has a snooze end.';
export const EMPTY_ROOM_UPDATE_MESSAGE = 'Give at least one of status, snoozed_until, assignee_id.';
export const assigneeNotFoundMessage = (id: number) => `Invalid pk "${id}" - object does not exist.`;

/**
 * PATCH /api/rooms/{id}/. `status: 'snoozed'` needs `snoozed_until` (in the future); `snoozed_until` alone
 * snoozes the room (null ends a snooze); any other status clears it. `assignee_id: null` unassigns.
 */
export const RoomUpdateBody = z
  .object({
    status: statusField.optional(),
    snoozed_until: z.string().datetime({ offset: true, message: 'Enter a valid date/time.' }).nullable().optional(),
    // A union, so a wrong type gets DRF's wording (a bare number's invalid_type would read as a missing field).
    assignee_id: z.union([z.number().int().min(1).max(2_147_483_647), z.null()], { error: 'A valid integer is required.' }).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.status === undefined && body.snoozed_until === undefined && body.assignee_id === undefined) {
      ctx.addIssue({ code: 'custom', message: EMPTY_ROOM_UPDATE_MESSAGE, path: [] });
    }
    if (body.status === 'snoozed' && !body.snoozed_until) ctx.addIssue({ code: 'custom', message: 'This field is required.', path: ['snoozed_until'] });
    if (body.status !== undefined && body.status !== 'snoozed' && body.snoozed_until) {
      ctx.addIssue({ code: 'custom', message: SNOOZE_WITHOUT_SNOOZED_MESSAGE, path: ['snoozed_until'] });
    }
  });
export type RoomUpdateBody = z.infer<typeof RoomUpdateBody>;

/** Snooze presets of the console, from a moment (local time for "tomorrow" and "next week"). */
export function snoozePresets(now: Date): { key: 'hour' | 'tomorrow' | 'next_week'; until: Date }[] {
  const hour = new Date(now.getTime() + 60 * 60_000);
  const tomorrow = new Date(now);
  tomorrow.setDate(tomorrow.getDate() + 1);
  tomorrow.setHours(9, 0, 0, 0);
  const nextWeek = new Date(now);
  nextWeek.setDate(nextWeek.getDate() + ((8 - nextWeek.getDay()) % 7 || 7));
  nextWeek.setHours(9, 0, 0, 0);
  return [
    { key: 'hour', until: hour },
    { key: 'tomorrow', until: tomorrow },
    { key: 'next_week', until: nextWeek },
  ];
}

/*
 * Auto-assignment (issue #22): per channel, off by default. When on, a room that opens (a new
 * conversation, a re-opened one) or is handed over by a bot or flow goes, round-robin, to a member who
 * is online (has the channel's inbox open and may manage chats) and under their capacity (open rooms
 * assigned to them; default DEFAULT_ASSIGNMENT_CAPACITY).
 *   GET /api/auto-assignment/                       company(chats, view)     → AutoAssignmentList
 *   PUT /api/auto-assignment/{channel_id}/           company(channels, manage) AutoAssignmentBody → AutoAssignmentSetting
 *   GET /api/assignment-capacities/                  company(members, view)   → AssignmentCapacityList
 *   PUT /api/assignment-capacities/{user_id}/        company(members, manage) AssignmentCapacityBody → AssignmentCapacity
 */
export const DEFAULT_ASSIGNMENT_CAPACITY = 20;
export const MAX_ASSIGNMENT_CAPACITY = 1000;

export interface AutoAssignmentSetting {
  channel_id: number;
  enabled: boolean;
}
export interface AutoAssignmentList {
  count: number;
  /** The company's channels with auto-assignment on (a channel not listed is off). */
  results: AutoAssignmentSetting[];
}
export const AutoAssignmentBody = z.object({ enabled: z.boolean({ error: 'Must be a valid boolean.' }) }).strict();
export type AutoAssignmentBody = z.infer<typeof AutoAssignmentBody>;

export interface AssignmentCapacity {
  user_id: number;
  capacity: number;
}
export interface AssignmentCapacityList {
  count: number;
  /** Every member of the company with their capacity (the default when never set). */
  results: AssignmentCapacity[];
}
export const AssignmentCapacityBody = z
  .object({
    capacity: z
      .number({ error: 'A valid integer is required.' })
      .int({ error: 'A valid integer is required.' })
      .min(0, { error: 'Ensure this value is greater than or equal to 0.' })
      .max(MAX_ASSIGNMENT_CAPACITY, { error: `Ensure this value is less than or equal to ${MAX_ASSIGNMENT_CAPACITY}.` }),
  })
  .strict();
export type AssignmentCapacityBody = z.infer<typeof AssignmentCapacityBody>;

/**
 * GET /api/chats/members/?search=&page=&page_size= → {count, next, previous, results: ChatMember[]}: the
 * company's members as the inbox needs them (the assignee picker, `@` in a note), readable by whoever
 * may view chats. An agent does not see the team page (/api/members/ needs members view), yet assigns
 * and mentions colleagues: this list gives names, e-mails and avatars only, no roles or permissions.
 */
export type ChatMember = Pick<TeamMember, 'user_id' | 'first_name' | 'last_name' | 'email' | 'profile_avatar_url'>;

export const ChatMemberListQuery = z.object(pageQuery);
export type ChatMemberListQuery = z.input<typeof ChatMemberListQuery>;
