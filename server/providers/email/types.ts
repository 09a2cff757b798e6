/** Outgoing e-mail: one interface, an SMTP implementation and a local outbox for development. */
export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface EmailSender {
  send(message: EmailMessage): Promise<void>;
}
