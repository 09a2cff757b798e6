import { expect, type APIRequestContext } from '@playwright/test';

interface OutboxEmail {
  id: number;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** Reads the local e-mail outbox (server/providers/email) and returns the first link of the newest e-mail to `to`. */
export async function linkFromLatestEmail(request: APIRequestContext, to: string, pathPart: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/dev/outbox.json?to=${encodeURIComponent(to)}`);
        const mails = (await res.json()) as OutboxEmail[];
        const mail = mails.find((m) => m.to.toLowerCase() === to.toLowerCase() && m.text.includes(pathPart));
        link = mail?.text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(pathPart));
        return link;
      },
      { message: `an e-mail to ${to} with a link to ${pathPart}`, timeout: 10_000 },
    )
    .toBeTruthy();
  // Links carry PUBLIC_URL; keep only path and query so the test follows them on its own base URL.
  const url = new URL(link!);
  return url.pathname + url.search;
}
