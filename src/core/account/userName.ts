import type { User } from '../../../contract/api';

/** The user's name as the console shows it (first and last name; '' when they gave none). */
export function userFullName(user: Pick<User, 'first_name' | 'last_name'>): string {
  return `${user.first_name} ${user.last_name}`.trim();
}
