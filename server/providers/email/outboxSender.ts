/**
 * Development e-mail: instead of sending, messages are stored in `outbox_emails` and logged,
 * so a developer (and the end-to-end tests) can follow verification and reset links.
 */
import { desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../core/clock';
import type { Database } from '../../core/db/client';
import { outboxEmails } from '../../core/db/schema';
import type { EmailMessage, EmailSender } from './types';

export interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  created_at: string;
}

const LINK = /https?:\/\/[^\s<>"')]+/;

export class OutboxEmailSender implements EmailSender {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly log?: Pick<FastifyBaseLogger, 'info' | 'warn'>,
    /** Demo mode logs each e-mail's link; elsewhere (no SMTP_URL on a real server) a warning without it, since a link is a sign-in. */
    private readonly logLinks = true,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    await this.db.insert(outboxEmails).values({
      to: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      createdAt: this.clock.now(),
    });
    if (!this.logLinks) {
      this.log?.warn(`E-mail to ${message.to} not sent (SMTP_URL is not set): ${message.subject}`);
      return;
    }
    const link = LINK.exec(message.text)?.[0];
    this.log?.info(`E-mail to ${message.to}: ${message.subject}${link ? ` — ${link}` : ''}`);
  }

  /** Newest first, optionally only those to one address. */
  async list(to?: string): Promise<OutboxEmail[]> {
    const rows = await this.db
      .select()
      .from(outboxEmails)
      .where(to ? eq(outboxEmails.to, to.trim().toLowerCase()) : undefined)
      .orderBy(desc(outboxEmails.createdAt), desc(outboxEmails.id))
      .limit(200);
    return rows.map((r) => ({ id: r.id, to: r.to, subject: r.subject, text: r.text, html: r.html, created_at: r.createdAt.toISOString() }));
  }
}

/** The first link in a message body (tests and the outbox page use it). */
export function firstLink(text: string): string | undefined {
  return LINK.exec(text)?.[0];
}
