/**
 * What the start-up banner (server/main.ts) says about demo mode, the providers and e-mail: the
 * truth of this configuration, and a loud warning when something that lets anyone in is mounted
 * on a server other machines can reach.
 */
import { isLoopbackHost, type AppConfig } from './config';
import { servesOutbox } from './demoRoutes';
import { mediaClusterProblem } from '../providers/storage/cluster';

type BannerConfig = Pick<AppConfig, 'host' | 'publicUrl' | 'trustProxy' | 'demo' | 'smtpUrl' | 'devOutbox' | 'meta' | 'google' | 'seedDemo'>;

/** Why the server counts as reachable by other machines (empty when it listens on loopback only). */
export function exposureReasons(config: Pick<AppConfig, 'host' | 'publicUrl' | 'trustProxy'>): string[] {
  const reasons: string[] = [];
  if (!isLoopbackHost(config.host)) reasons.push(`HOST=${config.host} is not loopback`);
  if (!isLoopbackHost(new URL(config.publicUrl).hostname)) reasons.push(`PUBLIC_URL=${config.publicUrl} is not local`);
  if (config.trustProxy) reasons.push('TRUST_PROXY is on');
  return reasons;
}

/** The paths mounted that let a visitor sign in as anyone or read others' e-mails. */
export function openDoors(config: BannerConfig): string[] {
  const doors: string[] = [];
  if (config.demo.enabled && config.meta.mode === 'local') doors.push('/dev/meta (fake Meta: Facebook sign-in as anyone, every fake token)');
  if (config.demo.enabled && config.google.mode === 'local') doors.push('/dev/google (fake Google: Google sign-in as anyone)');
  if (servesOutbox(config)) doors.push('/dev/outbox (every e-mail, password reset links included)');
  if (config.seedDemo) doors.push('the demo users (SEED_DEMO), whose password is published');
  return doors;
}

/** The warning block, or null: printed in the banner and logged at warn level. */
export function exposedDemoWarning(config: BannerConfig): string[] | null {
  const doors = openDoors(config);
  if (!config.demo.servesOtherMachines || doors.length === 0) return null;
  const rule = '!'.repeat(78);
  return [
    rule,
    '!! WARNING: DEMO DOORS OPEN ON A SERVER OTHER MACHINES CAN REACH',
    `!! (${exposureReasons(config).join(', ')}).`,
    '!! Anyone who can reach this port can sign in as ANY user through:',
    ...doors.map((door) => `!!   ${door}`),
    '!! Never run this with real users: unset DEMO_MODE, DEV_OUTBOX and SEED_DEMO, and',
    '!! configure META_APP_ID, GOOGLE_CLIENT_ID and SMTP_URL instead.',
    rule,
  ];
}

/** The banner's lines about demo mode, providers and e-mail; `base` is the URL printed for the pages. */
export function modeLines(config: BannerConfig, base: string): string[] {
  const lines: string[] = [];
  if (config.demo.enabled) {
    const why = config.demo.setting === 'true' ? 'DEMO_MODE=true' : 'DEMO_MODE=auto, listening on loopback only';
    const reach = config.demo.servesOtherMachines ? 'OTHER MACHINES CAN REACH THEM (see the warning)' : 'nobody else can reach them';
    lines.push(`  Demo mode: on (${why}): offline providers, ${reach}`);
  } else {
    const why = config.demo.setting === 'false' ? 'DEMO_MODE=false' : `DEMO_MODE=auto: ${exposureReasons(config).join(', ')}`;
    lines.push(`  Demo mode: off (${why}); no fake provider, no outbox page`);
  }

  if (config.smtpUrl) lines.push('  E-mail: sent through SMTP_URL');
  else if (servesOutbox(config)) lines.push(`  E-mail outbox: ${base}/dev/outbox (set SMTP_URL to send real e-mails)`);
  else lines.push('  E-mail: NOT SENT, SMTP_URL is not set (sign-up, reset and invite e-mails are kept in the database only)');

  const meta = { live: 'Meta: live (META_APP_ID)', local: `Fake Meta (WhatsApp, Messenger, Instagram; play the customer): ${base}/dev/meta/ (set META_APP_ID for the real one)`, off: 'Meta (WhatsApp, Messenger, Instagram, Facebook sign-in): not configured (set META_APP_ID)' };
  const google = { live: 'Google sign-in: live (GOOGLE_CLIENT_ID)', local: 'Fake Google sign-in at /dev/google (set GOOGLE_CLIENT_ID for the real one)', off: 'Google sign-in: not configured (set GOOGLE_CLIENT_ID)' };
  lines.push(`  ${meta[config.meta.mode]}`, `  ${google[config.google.mode]}`);
  return lines;
}

/**
 * Where media is kept, and the warning of a cluster (REDIS_URL) whose media is on each process's own
 * folder (providers/storage/cluster.ts; GET /api/ready/ fails with the same reason).
 */
export function mediaLines(config: Pick<AppConfig, 'redisUrl' | 's3' | 'mediaShared' | 'dataDir'>): string[] {
  const where = config.s3 ? `bucket ${config.s3.bucket} (S3_BUCKET)` : `${config.dataDir}/media${config.mediaShared ? ' (shared by every process: MEDIA_SHARED)' : ''}`;
  const problem = mediaClusterProblem(config);
  return [`  Media: ${where}`, ...(problem ? [`  !! WARNING: ${problem}. GET /api/ready/ answers 503 until then.`] : [])];
}
