/**
 * WhatsApp embedded signup (spec §2 /whatsapp-integration, §4, §7 wa-onboard): the console hands
 * over what Facebook's SDK returned (phone number id, WABA id, one-time code); the server answers at
 * once and runs the steps in the background, persisting each one:
 *   exchange_code → the business token (sealed), phone_number → the displayed number and verified
 *   name, register_phone → Cloud API registration with a random 6-digit PIN (kept sealed),
 *   subscribe_webhooks → the WABA's webhooks come to this app.
 * Outcome: all done → completed (active); exchange_code or phone_number failed → failed (not usable,
 * the number is freed); register_phone or subscribe_webhooks failed → partial_failure (usable,
 * counts as connected), retried with POST /api/wa-onboard/retry/.
 * Steps are idempotent (a done step is skipped). A run holds a lease in channels.settings so two
 * processes never run the same signup; in-progress signups are resumed at start and periodically.
 */
import { randomInt, randomUUID } from 'node:crypto';
import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import type { EmbeddedSignupBody, SignupStatusResponse, SignupStep, SignupStepName } from '../../../contract/channels';
import { channels } from '../../core/db/schema';
import { KeyedJobs } from '../../core/jobs/backgroundJob';
import { badRequest, forbidden, notFound } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { CHANNEL_MESSAGES, SECRET_SETTINGS, settingsWithout, type ChannelDeps, type ChannelService } from './service';
import { pendingSteps, stepsOf, toSignupStatus, type ChannelRow } from './views';

export const SIGNUP_MESSAGES = {
  startAgain: 'Start the WhatsApp signup again: Facebook codes can only be used once.',
  codeUsed: 'The signup code was already used: start the WhatsApp signup again.',
} as const;

/** The answer of a signup call: its HTTP status and body. */
export interface SignupAnswer {
  code: 200 | 202 | 409;
  body: SignupStatusResponse | AlreadyConnectedBody;
}

/** 409 of embedded_signup: the number belongs to another company (no id of theirs is shown). */
export interface AlreadyConnectedBody {
  status: 'failed';
  already_connected: true;
  detail: string;
  code: 'already_connected';
  external_id: string;
  error: string;
  steps: SignupStep[];
}

/** The columns a step stores (settings as a jsonb expression). */
type StepPatch = Partial<Pick<typeof channels.$inferInsert, 'accessTokenEnc' | 'displayPhoneNumber' | 'name'>> & { settings?: SQL };

const FATAL_STEPS: SignupStepName[] = ['exchange_code', 'phone_number'];

function alreadyConnectedBody(externalId: string): AlreadyConnectedBody {
  return {
    status: 'failed',
    already_connected: true,
    detail: CHANNEL_MESSAGES.alreadyConnected,
    code: 'already_connected',
    external_id: externalId,
    error: CHANNEL_MESSAGES.alreadyConnected,
    steps: [],
  };
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** jsonb merge of the given keys into the settings. */
function settingsMerge(values: Record<string, unknown>) {
  return sql`coalesce(${channels.settings}, '{}'::jsonb) || ${JSON.stringify(values)}::jsonb`;
}

export class SignupService {
  /** Background runs by channel id (the lease in channels.settings keeps other processes off the same signup). */
  private readonly runs: KeyedJobs<number>;
  /** How long a run's lease lasts; renewed before each step. */
  leaseMs = 2 * 60_000;
  /** How long close() waits for runs in flight before releasing their leases. */
  closeGraceMs = 5_000;

  constructor(
    private readonly deps: ChannelDeps,
    private readonly channelsService: ChannelService,
  ) {
    this.runs = new KeyedJobs({ log: deps.log, failureMessage: 'WhatsApp signup run failed', logFields: (channelId) => ({ channelId }) });
  }

  private get db() {
    return this.deps.db;
  }

  private async row(id: number): Promise<ChannelRow | null> {
    const [row] = await this.db.select().from(channels).where(eq(channels.id, id));
    return row ?? null;
  }

  // ---------- POST /api/wa-onboard/embedded_signup/ ----------

  async start(companyId: number, body: EmbeddedSignupBody & { company: number }): Promise<SignupAnswer> {
    if (body.company !== companyId) throw forbidden('The signup is for another company than the selected one.', 'company_mismatch');
    const externalId = body.phone_number_id;
    const holder = await this.channelsService.holder('whatsapp', externalId);
    if (holder && holder.companyId !== companyId) return { code: 409, body: alreadyConnectedBody(externalId) };
    if (holder?.signupStatus === 'completed' || holder?.signupStatus === 'partial_failure') return { code: 200, body: toSignupStatus(holder, true) };
    if (holder?.signupStatus === 'in_progress') {
      this.runInBackground(holder.id);
      return { code: 200, body: toSignupStatus(holder) };
    }

    const target = holder ?? (await this.channelsService.companyRow(companyId, 'whatsapp', externalId));
    // The plan's channel limit (issue #14): a new number, or a disconnected one connected again.
    if (!target || target.status === 'disconnected') await this.deps.planLimits.check(companyId, 'channels');
    const settings = {
      non_json_data: body.non_json_data ?? null,
      signup_email: body.email,
      // Kept (sealed) until exchanged, so a restart before the exchange can still finish the signup.
      code_enc: this.deps.box.seal(body.code),
    };
    const values = {
      wabaId: body.waba_id,
      status: 'pending',
      signupStatus: 'in_progress' as const,
      signupSteps: pendingSteps(),
      signupError: null,
      accessTokenEnc: null,
    };
    let row: ChannelRow;
    try {
      if (target) {
        [row] = await this.db
          .update(channels)
          .set({ ...values, settings: sql`${settingsWithout(SECRET_SETTINGS)} || ${JSON.stringify(settings)}::jsonb` })
          .where(eq(channels.id, target.id))
          .returning();
      } else {
        [row] = await this.db
          .insert(channels)
          .values({ ...values, settings, companyId, platform: 'whatsapp', externalId, name: 'WhatsApp', createdAt: this.deps.clock.now() })
          .returning();
      }
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // A concurrent signup of the same number won the race: answer as if it had come first.
      const winner = await this.channelsService.holder('whatsapp', externalId);
      if (!winner || winner.companyId !== companyId) return { code: 409, body: alreadyConnectedBody(externalId) };
      const connected = winner.signupStatus === 'completed' || winner.signupStatus === 'partial_failure';
      return { code: 200, body: toSignupStatus(winner, connected) };
    }
    this.runInBackground(row.id);
    return { code: 202, body: toSignupStatus(row) };
  }

  // ---------- GET /api/wa-onboard/signup_status/ ----------

  async status(companyId: number, externalId: string): Promise<SignupStatusResponse> {
    const row = await this.channelsService.companyRow(companyId, 'whatsapp', externalId);
    if (!row || !row.signupStatus) throw notFound();
    return toSignupStatus(row);
  }

  // ---------- POST /api/wa-onboard/retry/ ----------

  /** Runs the failed step and the ones after it again (inline: the answer is the outcome). */
  async retry(companyId: number, externalId: string): Promise<SignupAnswer> {
    const row = await this.channelsService.companyRow(companyId, 'whatsapp', externalId);
    if (!row || !row.signupStatus) throw notFound();
    if (row.signupStatus === 'in_progress') {
      this.runInBackground(row.id);
      return { code: 200, body: toSignupStatus(row) };
    }
    const failed = stepsOf(row).find((s) => s.status === 'failed');
    if (!failed) return { code: 200, body: toSignupStatus(row) };
    if (failed.name === 'exchange_code' || !row.accessTokenEnc) throw badRequest(SIGNUP_MESSAGES.startAgain, 'signup_code_used');
    if (row.status === 'disconnected') {
      // A failed signup freed the number: take it again, unless another company has it now.
      const holder = await this.channelsService.holder('whatsapp', externalId);
      if (holder && holder.id !== row.id) return { code: 409, body: alreadyConnectedBody(externalId) };
      try {
        await this.db.update(channels).set({ status: 'pending' }).where(eq(channels.id, row.id));
      } catch (err) {
        if (isUniqueViolation(err)) return { code: 409, body: alreadyConnectedBody(externalId) };
        throw err;
      }
    }
    await this.run(row.id);
    const after = await this.row(row.id);
    return { code: 200, body: toSignupStatus(after!) };
  }

  // ---------- runs ----------

  /** Starts a run in this process unless one is already running here (the lease guards other processes). */
  runInBackground(channelId: number): void {
    void this.runs.run(channelId, () => this.run(channelId));
  }

  /** Signups in progress whose lease is free (start-up, and periodically for a process that died mid-run). */
  async resumeAll(): Promise<number> {
    if (this.runs.isStopped) return 0;
    const rows = await this.db
      .select({ id: channels.id })
      .from(channels)
      .where(and(eq(channels.platform, 'whatsapp'), eq(channels.signupStatus, 'in_progress'), ne(channels.status, 'disconnected')));
    const ids = rows.map((r) => r.id).filter((id) => !this.runs.isRunning(id));
    for (const id of ids) this.runInBackground(id);
    return ids.length;
  }

  /** Resolves when every run of this process has ended (tests). */
  async settled(): Promise<void> {
    await this.runs.settled();
  }

  /** Shutdown: no new step starts; runs still waiting on Meta after the grace period release their lease for the next start. */
  async close(): Promise<void> {
    const stuck = await this.runs.stopWithin(this.closeGraceMs);
    if (stuck.length > 0) {
      await this.db
        .update(channels)
        .set({ settings: settingsWithout(['run_lease_until', 'run_id']) })
        .where(inArray(channels.id, stuck))
        .catch((err) => this.deps.log.warn({ err }, 'releasing signup leases'));
    }
  }

  /** Takes (or renews, with the same run id) the run's lease; null when another run holds it. */
  private async lease(channelId: number, runId: string, renew: boolean): Promise<ChannelRow | null> {
    const now = this.deps.clock.now();
    const until = new Date(now.getTime() + this.leaseMs).toISOString();
    const free = renew
      ? sql`${channels.settings}->>'run_id' = ${runId}`
      : sql`(${channels.settings}->>'run_lease_until' is null or (${channels.settings}->>'run_lease_until')::timestamptz < ${now.toISOString()}::timestamptz)`;
    const [row] = await this.db
      .update(channels)
      .set({ settings: settingsMerge({ run_lease_until: until, run_id: runId }) })
      .where(and(eq(channels.id, channelId), free))
      .returning();
    return row ?? null;
  }

  async run(channelId: number): Promise<void> {
    const runId = randomUUID();
    let row = await this.lease(channelId, runId, false);
    if (!row) return;
    const mine = and(eq(channels.id, channelId), sql`${channels.settings}->>'run_id' = ${runId}`);
    const steps = stepsOf(row);
    for (let i = 0; i < steps.length; i++) {
      if (steps[i].status === 'done') continue;
      if (this.runs.isStopped) return;
      // Renewed before each step; gone when the channel was disconnected, the signup restarted with
      // a new code, or the lease released at shutdown: this run then stops.
      row = await this.lease(channelId, runId, true);
      if (!row) return;
      const name = steps[i].name;
      const at = this.deps.clock.now().toISOString();
      try {
        const patch = await this.execute(name, row);
        steps[i] = { name, status: 'done', error: null, at };
        await this.db.update(channels).set({ ...patch, signupSteps: steps }).where(mine);
      } catch (err) {
        steps[i] = { name, status: 'failed', error: errorText(err), at };
        this.deps.log.warn({ err, channelId, step: name }, 'WhatsApp signup step failed');
        await this.db
          .update(channels)
          // A one-time code is spent even when the exchange fails.
          .set({ signupSteps: steps, ...(name === 'exchange_code' ? { settings: settingsWithout(['code_enc']) } : {}) })
          .where(mine);
        break;
      }
    }
    await this.finish(channelId, runId, steps);
  }

  /** The step's Graph API call; resolves with the columns to store. */
  private async execute(name: SignupStepName, row: ChannelRow): Promise<StepPatch> {
    const graph = this.deps.graph();
    const box = this.deps.box;
    const token = () => {
      const value = this.channelsService.tokenOf(row);
      if (!value) throw new Error('The business token is missing: start the WhatsApp signup again.');
      return value;
    };
    switch (name) {
      case 'exchange_code': {
        const sealed = row.settings?.code_enc;
        if (typeof sealed !== 'string') throw new Error(SIGNUP_MESSAGES.codeUsed);
        const { accessToken } = await graph.exchangeCode(box.open(sealed));
        return { accessTokenEnc: box.seal(accessToken), settings: settingsWithout(['code_enc']) };
      }
      case 'phone_number': {
        const info = await graph.phoneNumber(row.externalId, token());
        return { displayPhoneNumber: info.display_phone_number, name: info.verified_name || info.display_phone_number || row.name };
      }
      case 'register_phone': {
        let pin: string;
        if (typeof row.settings?.pin_enc === 'string') pin = box.open(row.settings.pin_enc);
        else {
          // Stored before the call: a retry registers with the same two-step verification PIN.
          pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
          await this.db
            .update(channels)
            .set({ settings: settingsMerge({ pin_enc: box.seal(pin) }) })
            .where(eq(channels.id, row.id));
        }
        await graph.registerPhone(row.externalId, token(), pin);
        return {};
      }
      case 'subscribe_webhooks': {
        if (!row.wabaId) throw new Error('The WhatsApp Business Account id is missing.');
        await graph.subscribeWaba(row.wabaId, token());
        return {};
      }
    }
  }

  /** The outcome from the steps, and the lease released. */
  private async finish(channelId: number, runId: string, steps: SignupStep[]): Promise<void> {
    const failed = steps.find((s) => s.status === 'failed');
    const release = settingsWithout(['run_lease_until', 'run_id']);
    const mine = and(eq(channels.id, channelId), sql`${channels.settings}->>'run_id' = ${runId}`);
    if (steps.every((s) => s.status === 'done') || (failed && !FATAL_STEPS.includes(failed.name))) {
      const outcome = failed
        ? { signupStatus: 'partial_failure' as const, signupError: `${failed.name} failed: ${failed.error ?? 'unknown error'}` }
        : { signupStatus: 'completed' as const, signupError: null };
      try {
        await this.db
          .update(channels)
          .set({ ...outcome, status: 'active', settings: release })
          .where(mine);
        return;
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        // The number was taken by another company while this (retried) signup ran.
        await this.db
          .update(channels)
          .set({ signupStatus: 'failed', signupError: CHANNEL_MESSAGES.alreadyConnected, status: 'disconnected', settings: release })
          .where(mine);
        return;
      }
    }
    if (!failed) {
      // Stopped before the end (should not happen): leave it in progress for a resume.
      await this.db.update(channels).set({ settings: release }).where(mine);
      return;
    }
    // Not usable: the number is freed (status disconnected) so the signup can start again, here or elsewhere.
    await this.db
      .update(channels)
      .set({ signupStatus: 'failed', signupError: failed.error ?? 'The signup failed.', status: 'disconnected', settings: release })
      .where(mine);
  }
}
