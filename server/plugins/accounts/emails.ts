/** The account e-mails (plain text first; the HTML part carries the same link). */
import type { EmailMessage } from '../../core/email/types';

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
