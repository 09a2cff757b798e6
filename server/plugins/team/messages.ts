/** Messages of the team area's refusals (the console shows them as the server sends them). */
export const TEAM_MESSAGES = {
  lastAdmin: 'A company needs at least one admin.',
  adminRoleOnlyByAdmin: 'Only an admin can grant or remove the admin role.',
  inviteAdminOnlyByAdmin: 'Only an admin can invite admins.',
  alreadyMember: (email: string) => `${email} is already a member.`,
  listedTwice: (email: string) => `${email} is listed more than once.`,
  inviteAccepted: 'This invite has already been accepted.',
  adminLocked: 'The admin role always has every permission.',
  unknownPermission: (key: string) => `Unknown permission: ${key}.`,
  badImage: 'Upload a PNG, JPEG, GIF or WebP image.',
  imageTooLarge: 'The image must be at most 1 MB.',
} as const;
