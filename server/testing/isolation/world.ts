/**
 * The seeded world of the generated isolation test: two companies, A (the caller's) and B (the
 * victim), each with an admin, an agent and a manager (the manager's role gets one permission turned
 * off per check through company_role_permissions), and one of each resource a company owns. Every
 * name, text and title B owns carries MARKER, so a leak shows in any response body.
 *
 * A plugin whose routes or topics name a new kind of resource seeds one for each company in its
 * own isolation area (server/plugins/<id>/isolation.ts, ./areas.ts) beside its route fixtures.
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import type { TestApp } from '../testApp';
import type { RoleId } from '../../../contract/permissions';
import {
  agentTemplates,
  channels,
  companies,
  companyRolePermissions,
  invites,
  memberships,
  messages,
  roomTags,
  rooms,
  sessions,
  tags,
  users,
  whatsappTemplates,
} from '../../core/db/schema';
import { SecretBox } from '../../core/crypto/secretBox';
import { chatServiceRef } from '../../plugins/chats';
import { ensureSandboxChannel } from '../../plugins/sandbox';
import { ISOLATION_AREAS } from './areaRegistry';

/** In every name and text B owns: never in a response to A. */
export const MARKER = 'zq7-b-only';

export interface Person {
  id: number;
  email: string;
  role: RoleId;
  access: string;
  refresh: string;
}

export interface CompanyWorld {
  id: number;
  admin: Person;
  manager: Person;
  agent: Person;
  /** The agent's membership id (members routes take membership ids). */
  agentMembership: number;
  inviteId: number;
  /** An invitation for a user of no company yet (the invitations routes of its addressee). */
  invitee: Person;
  inviteForInviteeId: number;
  whatsappChannelId: number;
  whatsappPhoneId: string;
  sandboxChannelId: number;
  simulatorKey: string;
  roomId: number;
  messageId: number;
  tagId: number;
  agentTemplateId: number;
  /** A WhatsApp message template of the company's WhatsApp channel (templates plugin). */
  whatsappTemplateId: number;
  /** A bot key of the company (the bot service's `Authorization: Bot <key>`), for botKey routes. */
  botKey: string;
  /** Ids seeded by the feature plugins' isolation areas, by area name (server/testing/isolation/areas.ts). */
  areas: Record<string, Record<string, number | string>>;
}

export interface World {
  A: CompanyWorld;
  B: CompanyWorld;
  /** B's rows everywhere, canonical JSON: compared before and after each call. */
  snapshotB(): Promise<string>;
  /** Signs A's people in again (a route may have ended the caller's session, e.g. logout); B's sessions stay as they are. */
  refreshTokens(): Promise<void>;
}

async function person(t: TestApp, email: string, role: RoleId, firstName: string): Promise<Person> {
  const id = await t.seed.user({ email, firstName, lastName: firstName });
  const tokens = await t.login(email);
  return { id, email, role, access: tokens.access, refresh: tokens.refresh };
}

async function seedCompany(t: TestApp, label: 'A' | 'B', domain: string): Promise<CompanyWorld> {
  const mark = label === 'B' ? ` ${MARKER}` : '';
  const id = await t.seed.company(`Company ${label}${mark}`);
  const members: Partial<Record<RoleId, Person>> = {};
  for (const role of ['admin', 'manager', 'agent'] as const) {
    const p = await person(t, `${role}@${domain}`, role, `${role}${mark}`);
    await t.seed.member(id, p.id, role);
    members[role] = p;
  }
  const [agentMembership] = await t.db.select({ id: memberships.id }).from(memberships).where(and(eq(memberships.companyId, id), eq(memberships.userId, members.agent!.id)));
  await t.seed.invite(id, `pending@${domain}`);
  const [invite] = await t.db.select({ id: invites.id }).from(invites).where(and(eq(invites.companyId, id), eq(invites.email, `pending@${domain}`)));
  const invitee = await person(t, `invitee@${domain}`, 'agent', `invitee${mark}`);
  await t.seed.invite(id, invitee.email);
  const [inviteForInvitee] = await t.db.select({ id: invites.id }).from(invites).where(and(eq(invites.companyId, id), eq(invites.email, invitee.email)));

  const phone = `${label.toLowerCase()}-phone-1`;
  const [whatsapp] = await t.db
    .insert(channels)
    .values({
      companyId: id,
      platform: 'whatsapp',
      externalId: phone,
      name: `WhatsApp ${label}${mark}`,
      status: 'active',
      // Sealed with the app's channel key, as the channels plugin stores a page's token.
      accessTokenEnc: new SecretBox(t.config.channelSecretKey).seal(`token-${phone}`),
      wabaId: `waba-${label}`,
      signupStatus: 'completed',
      settings: {},
    })
    .returning();
  const sandbox = await ensureSandboxChannel(t.db, id);
  const chats = t.app.services.get(chatServiceRef);
  const inbound = await chats.receiveInbound(sandbox, {
    externalUserId: `customer-${label}`,
    name: `Customer ${label}${mark}`,
    type: 'text',
    text: `Hello from ${label}${mark}`,
    clientId: `seed-${label}`,
  });
  const [tag] = await t.db.insert(tags).values({ companyId: id, name: `tag ${label}${mark}` }).returning();
  await t.db.insert(roomTags).values({ roomId: inbound.room.id, tagId: tag.id });
  const [template] = await t.db
    .insert(agentTemplates)
    .values({ companyId: id, name: `Template ${label}${mark}`, text: `Reply of ${label}${mark}`, createdBy: members.admin!.id })
    .returning();

  const [whatsappTemplate] = await t.db
    .insert(whatsappTemplates)
    .values({
      companyId: id,
      channelId: whatsapp.id,
      wabaId: `waba-${label}`,
      metaTemplateId: `meta-template-${label}`,
      name: `template_${label.toLowerCase()}`,
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: `Hello from ${label}${mark}` }],
      status: 'APPROVED',
    })
    .returning();

  const company = {
    id,
    admin: members.admin!,
    manager: members.manager!,
    agent: members.agent!,
    agentMembership: agentMembership.id,
    inviteId: invite.id,
    invitee,
    inviteForInviteeId: inviteForInvitee.id,
    whatsappChannelId: whatsapp.id,
    whatsappPhoneId: phone,
    sandboxChannelId: sandbox.id,
    simulatorKey: sandbox.simulatorKey!,
    roomId: inbound.room.id,
    messageId: inbound.message.id,
    tagId: tag.id,
    agentTemplateId: template.id,
    whatsappTemplateId: whatsappTemplate.id,
    botKey: `bot-key-${label}-${MARKER}`,
  };
  const areas: CompanyWorld['areas'] = {};
  for (const area of ISOLATION_AREAS) if (area.seed) areas[area.name] = await area.seed(t, company, mark);
  return { ...company, areas };
}

export async function seedWorld(t: TestApp): Promise<World> {
  const A = await seedCompany(t, 'A', 'alpha.test');
  const B = await seedCompany(t, 'B', 'beta.test');
  const bUsers = [B.admin.id, B.manager.id, B.agent.id, B.invitee.id];

  async function snapshotB(): Promise<string> {
    const db = t.db;
    const parts = {
      company: await db.select().from(companies).where(eq(companies.id, B.id)),
      memberships: await db.select().from(memberships).where(or(eq(memberships.companyId, B.id), inArray(memberships.userId, bUsers))).orderBy(memberships.id),
      permissions: await db.select().from(companyRolePermissions).where(eq(companyRolePermissions.companyId, B.id)),
      invites: await db.select().from(invites).where(eq(invites.companyId, B.id)).orderBy(invites.id),
      channels: await db.select().from(channels).where(eq(channels.companyId, B.id)).orderBy(channels.id),
      rooms: await db.select().from(rooms).where(eq(rooms.companyId, B.id)).orderBy(rooms.id),
      messages: await db.select().from(messages).where(eq(messages.companyId, B.id)).orderBy(messages.id),
      tags: await db.select().from(tags).where(eq(tags.companyId, B.id)).orderBy(tags.id),
      templates: await db.select().from(agentTemplates).where(eq(agentTemplates.companyId, B.id)).orderBy(agentTemplates.id),
      whatsappTemplates: await db.select().from(whatsappTemplates).where(eq(whatsappTemplates.companyId, B.id)).orderBy(whatsappTemplates.id),
      users: await db.select().from(users).where(inArray(users.id, bUsers)).orderBy(users.id),
      sessions: await db.select({ id: sessions.id, revokedAt: sessions.revokedAt }).from(sessions).where(inArray(sessions.userId, bUsers)).orderBy(sessions.id),
      areas: await Promise.all(ISOLATION_AREAS.filter((area) => area.snapshot).map(async (area) => [area.name, await area.snapshot!(t, B.id)])),
    };
    return JSON.stringify(parts);
  }

  const world: World = {
    A,
    B,
    snapshotB,
    async refreshTokens() {
      // A new session straight from the SessionService: the login route's throttle (which the fuzz trips) stays out of it.
      for (const p of [A.admin, A.manager, A.agent]) {
        const tokens = await t.app.services.get('SessionService').start(p.id);
        p.access = tokens.access;
        p.refresh = tokens.refresh;
      }
    },
  };
  return world;
}
