/**
 * The local fake Graph API in its own process for the broadcast bench (so it does not share the
 * engine's event loop or its memory figure): one registered WhatsApp number, a business token,
 * no status webhooks. Prints one JSON line {url, graphUrl, phoneNumberId, wabaId, token} and serves
 * until killed. GET {url}/bench/received → arrivals of message sends per epoch second.
 */
import { startFakeMeta } from '../../server/providers/meta/fake/fakeMeta';

const appSecret = process.env.BENCH_APP_SECRET ?? 'bench-app-secret-0123456789';
const fake = await startFakeMeta({ appId: 'bench-app', appSecret, autoStatuses: false });
const signup = fake.state.createWhatsAppBusiness({ businessName: 'Bench Co', phoneNumber: '+1 555 0150' });
fake.state.data.phoneNumbers[signup.phoneNumberId].registered = true;
const token = fake.state.issueBusinessToken(signup.wabaId);

// Arrivals per epoch second, counted by wrapping the store's outbound recording (no route of the fake changes).
const perSecond = new Map<number, number>();
const record = fake.state.recordOutbound.bind(fake.state);
fake.state.recordOutbound = (message) => {
  const second = Math.floor(Date.now() / 1000);
  perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  return record(message);
};
// The figures on a second tiny server (the fake's routes stay as they are).
const { createServer } = await import('node:http');
const stats = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/received') {
    res.end(JSON.stringify(Object.fromEntries(perSecond)));
    return;
  }
  let total = 0;
  let duplicates = 0;
  for (const count of fake.state.sendCounts.values()) {
    total += count;
    if (count > 1) duplicates += 1;
  }
  res.end(JSON.stringify({ total, recipients: fake.state.sendCounts.size, duplicates }));
});
await new Promise<void>((resolve) => stats.listen(0, '127.0.0.1', resolve));
const statsPort = (stats.address() as { port: number }).port;

process.stdout.write(
  `${JSON.stringify({ url: fake.url, graphUrl: fake.graphUrl, statsUrl: `http://127.0.0.1:${statsPort}`, phoneNumberId: signup.phoneNumberId, wabaId: signup.wabaId, token, appSecret })}\n`,
);
