import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The local fake Meta that `npm start` mounts at /dev/meta when no META_APP_ID is set: its control
 * API plays the customer's side of WhatsApp (signed webhooks in, recorded sends out).
 */
export class FakeMeta {
  constructor(private readonly request: APIRequestContext) {}

  /** A customer writes to a WhatsApp number: the fake posts Meta's signed webhook to the server. */
  async customerWrites(input: { phoneNumberId: string; from: string; name: string; text: string }): Promise<string> {
    const res = await this.request.post('/dev/meta/control/inbound', {
      data: { phone_number_id: input.phoneNumberId, from: input.from, name: input.name, text: input.text },
    });
    expect(res.ok(), await res.text()).toBeTruthy();
    const body = (await res.json()) as { message_id: string; webhook_status: number };
    expect(body.webhook_status).toBe(200);
    return body.message_id;
  }

  /** What the business sent through the Cloud API, newest last. */
  async sent(): Promise<{ id: string; to: string; payload: Record<string, unknown> }[]> {
    const res = await this.request.get('/dev/meta/control/sent');
    expect(res.ok(), await res.text()).toBeTruthy();
    const body = (await res.json()) as { data?: unknown[] } | unknown[];
    return (Array.isArray(body) ? body : (body.data ?? [])) as { id: string; to: string; payload: Record<string, unknown> }[];
  }

  /** The customer's phone reports a status (delivered, read) for a sent message. */
  async status(messageId: string, status: 'delivered' | 'read') {
    const res = await this.request.post('/dev/meta/control/status', { data: { message_id: messageId, status } });
    expect(res.ok(), await res.text()).toBeTruthy();
  }
}
