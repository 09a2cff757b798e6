/** The invitation e-mail (plain text first; the HTML part carries the same link). */
import type { EmailMessage } from '../../providers/email/types';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface InviteEmailInput {
  to: string;
  companyName: string;
  inviterName: string;
  roleName: string;
  link: string;
  ttlDays: number;
}

export function inviteEmail({ to, companyName, inviterName, roleName, link, ttlDays }: InviteEmailInput): EmailMessage {
  const lines = [
    `${inviterName} invited you to join ${companyName} on the console as ${roleName}.`,
    `Open the link below within ${ttlDays} days to accept. If you already have an account, sign in with this e-mail address and choose Join on the invitation. If you did not expect this invitation, ignore this e-mail.`,
  ];
  const body = lines.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  return {
    to,
    subject: `${inviterName} invited you to join ${companyName}`,
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif">${body}<p><a href="${escapeHtml(link)}">Accept the invitation</a></p></body></html>`,
  };
}
