import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SmtpEmailSender } from './smtpSender';

interface Received {
  from: string | false;
  to: string[];
  raw: string;
}

describe('SmtpEmailSender', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : false,
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers the message to the SMTP server named by the URL', async () => {
    const sender = new SmtpEmailSender(`smtp://127.0.0.1:${port}?ignoreTLS=true`, 'Console <no-reply@console.test>');
    await sender.send({
      to: 'grace@example.com',
      subject: 'Reset your password',
      text: 'Open http://console.test/auth/reset-password/abc',
      html: '<p><a href="http://console.test/auth/reset-password/abc">Reset</a></p>',
    });
    sender.close();

    expect(received).toHaveLength(1);
    const [mail] = received;
    expect(mail.from).toBe('no-reply@console.test');
    expect(mail.to).toEqual(['grace@example.com']);
    expect(mail.raw).toMatch(/^Subject: Reset your password$/m);
    expect(mail.raw).toMatch(/^From: Console <no-reply@console\.test>$/m);
    expect(mail.raw).toContain('http://console.test/auth/reset-password/abc');
    expect(mail.raw).toContain('multipart/alternative');
  });
});
