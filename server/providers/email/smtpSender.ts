/** Sends e-mail through the SMTP server named by SMTP_URL (e.g. smtps://user:pass@host:465). */
import type { Transporter } from 'nodemailer';
import { lazyRequire } from '../../core/lazyRequire';
import type { EmailMessage, EmailSender } from './types';

export class SmtpEmailSender implements EmailSender {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Required here, not imported at start: only a server with SMTP_URL uses it (core/lazyRequire.ts).
    this.transport = (lazyRequire('nodemailer') as typeof import('nodemailer')).createTransport(smtpUrl);
  }

  async send(message: EmailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }

  close(): void {
    this.transport.close();
  }
}
