/** The account e-mails (plain text first; the HTML part carries the same link). */
import type { EmailMessage } from '../../providers/email/types';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function html(paragraphs: string[], link: string, label: string): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('');
  return `<!doctype html><html><body style="font-family:sans-serif">${body}<p><a href="${escapeHtml(link)}">${escapeHtml(label)}</a></p></body></html>`;
}

export function passwordResetEmail(to: string, link: string): EmailMessage {
  const lines = [
    'Someone asked to reset the password of your console account.',
    'Open the link below within one hour to choose a new password. If it was not you, ignore this e-mail: your password stays unchanged.',
  ];
  return {
    to,
    subject: 'Reset your password',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: html(lines, link, 'Choose a new password'),
  };
}

export function verifyEmailEmail(to: string, link: string): EmailMessage {
  const lines = [
    'Welcome! Confirm this e-mail address to create your console account.',
    'The link below is valid for 24 hours. If you did not ask for an account, ignore this e-mail.',
  ];
  return {
    to,
    subject: 'Verify your e-mail address',
    text: `${lines.join('\n\n')}\n\n${link}\n`,
    html: html(lines, link, 'Verify my e-mail address'),
  };
}

/**
 * Sent instead of a verification link (or after a registration) when the address already has an
 * account: the sign-up answers stay the same for every address, and only the owner learns this.
 */
export function signupAttemptEmail(to: string, publicUrl: string): EmailMessage {
  const links = { login: `${publicUrl}/auth/login?email=${encodeURIComponent(to)}`, reset: `${publicUrl}/auth/reset-password` };
  const lines = [
    'Someone tried to sign up for the console with your e-mail address, which already has an account.',
    `If it was you, sign in instead: ${links.login}`,
    `Forgot your password? Choose a new one: ${links.reset}`,
    'If it was not you, ignore this e-mail: nothing changed on your account.',
  ];
  return {
    to,
    subject: 'You already have an account',
    text: `${lines.join('\n\n')}\n`,
    html: html([lines[0], lines[3]], links.login, 'Sign in'),
  };
}
