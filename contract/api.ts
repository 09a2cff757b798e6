/** Shapes of the HTTP API (spec §3, §7), used by the server's handlers and the console's clients. */
import type { PermissionMap, RoleId } from './permissions';

/** Paged lists read from `results`; pages start at 1. */
export interface Paged<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export interface Role {
  id: RoleId;
  name: string;
}

export interface CompanyMembership {
  id: number; // the company's id
  name: string;
  logo: string | null;
  translator_domain: string | null;
  created_at: string;
  permissions: PermissionMap;
  subscription_plan_name: string | null;
  role: Role;
  /** Spec §6: agents (not admins or managers) see only rooms tagged with their own e-mail. */
  agent_feature: boolean;
}

export interface User {
  id: number;
  first_name: string;
  last_name: string;
  email: string;
  profile_avatar_url: string | null;
  companies: CompanyMembership[];
}

export interface TokenPair {
  access: string;
  refresh: string;
}

export interface LoginResponse extends TokenPair {
  user: User;
}

export interface Company {
  id: number;
  name: string;
  logo: string | null;
}

/** GET /api/companies/{id}/account/ */
export interface CompanyAccount extends CompanyMembership {
  members_count: number;
}

export interface OnboardingStatus {
  verified: boolean;
}

/**
 * GET /api/invites/check_email/: without the invitation link's token (or with a wrong one) the same
 * for every address; with it, the inviting company and whether the address already has an account
 * (the link's holder owns the address, so that tells them nothing new).
 */
export interface InviteCheck {
  email: string;
  invited: boolean;
  companies: string[];
  /** Only with a valid token. */
  has_account?: boolean;
}

/** Claims of our JWTs the console reads (it only decodes them, never verifies). */
export interface TokenClaims {
  sub: string;
  exp: number;
  iat: number;
  typ: 'access' | 'refresh';
}
