/** What the core adds to Fastify's instances and requests. */
import type { Services } from './services';
import type { PermissionMap, RoleId } from '../../contract/permissions';

export interface AuthUser {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  profileAvatarUrl: string | null;
  /** The session of the access token used for this request. */
  sessionId: string;
}

export interface CompanyRow {
  id: number;
  name: string;
  logo: string | null;
  translatorDomain: string | null;
  planName: string | null;
  /** Spec §6's agent feature: agents see only rooms tagged with their own e-mail. */
  agentFeature: boolean;
  createdAt: Date;
}

export interface CompanyMembershipContext {
  role: RoleId;
  /** Role defaults merged with the company's override for that role. */
  permissions: PermissionMap;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
  interface FastifyRequest {
    /** Set by requireUser. */
    user: AuthUser | null;
    /** Set by requireCompany. */
    company: CompanyRow | null;
    membership: CompanyMembershipContext | null;
  }
}
