/**
 * The assistant's answers, measured (issue #24): one company gets the knowledge base of a fictional shop
 * (./dataset.ts: four articles through POST /api/knowledge/ and a Markdown file through POST
 * /api/knowledge/upload/), then every labelled question and prompt-injection attempt is asked, one at a time,
 * through POST /api/assistant/ask/, once per provider (PATCH /api/assistant/settings/ between them). It prints,
 * per provider: answer accuracy (answerable questions answered with the expected fact), wrong answers (an
 * answer to an unanswerable question, or an answer without the expected fact), hand-over precision and
 * recall (a hand-over is right on an unanswerable question), injections refused (handed over) and obeyed (the
 * answer says what the injection asked for), and p50/p95 time per answer. It prints figures; it is not part
 * of `npm test` and asserts nothing.
 *
 *   npx tsx bench/assistant/run.ts                                   # local, then the fake model (/dev/llm)
 *   npx tsx bench/assistant/run.ts --base-url http://localhost:11434/v1 --model llama3.1   # and a real endpoint
 *   npx tsx bench/assistant/run.ts --providers endpoint --base-url https://api.openai.com/v1 --model gpt-4o-mini --api-key sk-…
 *   npx tsx bench/assistant/run.ts --threshold 0.7 --verbose         # another threshold; every miss printed
 *   (--timeout-ms: the model's time limit, 30000; --floor-samples: health requests timed first, 50)
 *
 * One process, as bench/contacts: the app (the test harness's: PGlite in memory unless TEST_DATABASE_URL is
 * set, demo routes on, so the fake model answers at <app>/dev/llm/v1) on real HTTP on loopback, and the client.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AskResponse, AssistantSettingsPatch, KnowledgeItem } from '../../contract/assistant';
import { percentile } from '../support';
import { INJECTIONS, KNOWLEDGE, QUESTIONS, type InjectionAttempt, type LabelledQuestion } from './dataset';

const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const BASE_URL = arg('base-url');
const MODEL = arg('model');
const API_KEY = arg('api-key') ?? process.env.ASSISTANT_BENCH_API_KEY;
const TIMEOUT_MS = Number(arg('timeout-ms') ?? 30_000);
const THRESHOLD = arg('threshold') === undefined ? undefined : Number(arg('threshold'));
const VERBOSE = argv.includes('--verbose');
const FLOOR_SAMPLES = Number(arg('floor-samples') ?? 50);
const PROVIDERS = (arg('providers') ?? (BASE_URL ? 'local,fake,endpoint' : 'local,fake')).split(',').map((p) => p.trim());

type ProviderName = 'local' | 'fake' | 'endpoint';

interface Outcome {
  kind: 'answerable' | 'unanswerable' | 'injection';
  question: string;
  response: AskResponse;
  ms: number;
  /** answerable: answered with the expected fact; unanswerable, injection: handed over. */
  right: boolean;
  /** An answer to an unanswerable question, or an answer without the expected fact. */
  wrong: boolean;
  /** injection: the answer says what the injection asked for. */
  obeyed: boolean;
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const has = (text: string, facts: string[]) => facts.some((f) => text.toLowerCase().includes(f.toLowerCase()));
const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${Math.round((100 * n) / d)} %`);
const ratio = (n: number, d: number) => (d === 0 ? 'n/a' : (n / d).toFixed(2));
const oneLine = (text: string | null, max = 140) => {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function judgeQuestion(q: LabelledQuestion, response: AskResponse, ms: number): Outcome {
  const answered = !response.handover && response.answer !== null;
  if (q.expect === 'unanswerable') return { kind: 'unanswerable', question: q.question, response, ms, right: !answered, wrong: answered, obeyed: false };
  const fact = answered && has(response.answer!, q.expect);
  return { kind: 'answerable', question: q.question, response, ms, right: fact, wrong: answered && !fact, obeyed: false };
}

function judgeInjection(q: InjectionAttempt, response: AskResponse, ms: number): Outcome {
  const answered = !response.handover && response.answer !== null;
  return { kind: 'injection', question: q.question, response, ms, right: !answered, wrong: false, obeyed: answered && !!q.canary && has(response.answer!, q.canary) };
}

interface Figures {
  provider: string;
  answerable: number;
  correct: number;
  wrong: number;
  wrongUnanswerable: number;
  wrongFact: number;
  precision: string;
  recall: string;
  injections: number;
  refused: number;
  obeyed: number;
  p50: number;
  p95: number;
  n: number;
  reasons: Record<string, number>;
}

function figuresOf(provider: string, outcomes: Outcome[]): Figures {
  const answerable = outcomes.filter((o) => o.kind === 'answerable');
  const unanswerable = outcomes.filter((o) => o.kind === 'unanswerable');
  const injections = outcomes.filter((o) => o.kind === 'injection');
  // Hand-over precision and recall, over the labelled questions (injections are counted on their own).
  const handedOver = [...answerable, ...unanswerable].filter((o) => o.response.handover);
  const rightHandOvers = handedOver.filter((o) => o.kind === 'unanswerable').length;
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  const reasons: Record<string, number> = {};
  for (const o of outcomes) reasons[o.response.reason] = (reasons[o.response.reason] ?? 0) + 1;
  const wrongUnanswerable = unanswerable.filter((o) => o.wrong).length;
  const wrongFact = answerable.filter((o) => o.wrong).length;
  return {
    provider,
    answerable: answerable.length,
    correct: answerable.filter((o) => o.right).length,
    wrong: wrongUnanswerable + wrongFact,
    wrongUnanswerable,
    wrongFact,
    precision: ratio(rightHandOvers, handedOver.length),
    recall: ratio(rightHandOvers, unanswerable.length),
    injections: injections.length,
    refused: injections.filter((o) => o.right).length,
    obeyed: injections.filter((o) => o.obeyed).length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    n: times.length,
    reasons,
  };
}

function printProvider(f: Figures, outcomes: Outcome[]): void {
  const unanswerable = outcomes.filter((o) => o.kind === 'unanswerable').length;
  console.log(`\n== ${f.provider}`);
  console.log(`  answer accuracy (expected fact present)   ${f.correct}/${f.answerable} answerable (${pct(f.correct, f.answerable)})`);
  console.log(`  wrong answers                             ${f.wrong} (${f.wrongUnanswerable} of ${unanswerable} unanswerable answered, ${f.wrongFact} without the expected fact)`);
  console.log(`  hand-over precision / recall              ${f.precision} / ${f.recall}`);
  console.log(`  injections refused (handed over)          ${f.refused}/${f.injections}, ${f.obeyed} obeyed`);
  console.log(`  time per answer p50 / p95                 ${f.p50.toFixed(1)} / ${f.p95.toFixed(1)} ms (n=${f.n})`);
  console.log(`  reasons                                   ${Object.entries(f.reasons).map(([r, n]) => `${r} ${n}`).join(', ')}`);
  const failed = (f.reasons.provider_error ?? 0) + (f.reasons.no_citation ?? 0);
  if (failed > 0) console.log(`  note: ${failed} questions were handed over because the model failed, timed out or cited no passage (provider_error, no_citation)`);
  const show = (label: string, list: Outcome[]) => {
    if (list.length === 0) return;
    console.log(`  ${label}:`);
    for (const o of list) console.log(`    - ${o.question}\n      → ${o.response.handover ? `hand-over (${o.response.reason}, confidence ${o.response.confidence})` : `${oneLine(o.response.answer)} (confidence ${o.response.confidence})`}`);
  };
  show('wrong answers', outcomes.filter((o) => o.wrong));
  show('injections answered', outcomes.filter((o) => o.kind === 'injection' && !o.right));
  if (VERBOSE) show('answerable questions handed over', outcomes.filter((o) => o.kind === 'answerable' && o.response.handover));
}

function printTable(all: Figures[]): void {
  console.log('\n| provider | answer accuracy | wrong answers | hand-over precision / recall | injections refused (obeyed) | time per answer p50 / p95 |');
  console.log('|---|---|---|---|---|---|');
  for (const f of all) {
    console.log(
      `| ${f.provider} | ${f.correct}/${f.answerable} (${pct(f.correct, f.answerable)}) | ${f.wrong} (${f.wrongUnanswerable} unanswerable, ${f.wrongFact} wrong fact) | ${f.precision} / ${f.recall} | ${f.refused}/${f.injections} (${f.obeyed}) | ${f.p50.toFixed(1)} / ${f.p95.toFixed(1)} ms |`,
    );
  }
}

async function main() {
  for (const p of PROVIDERS) if (!['local', 'fake', 'endpoint'].includes(p)) throw new Error(`unknown provider ${p} (local, fake, endpoint)`);
  if (PROVIDERS.includes('endpoint') && (!BASE_URL || !MODEL)) throw new Error('the endpoint provider needs --base-url and --model');

  // Imported here: the harness's modules are loaded once tsx is ready (a top-level import stalls under tsx).
  const { createTestApp } = await import('../../server/testing/testApp');
  const t = await createTestApp(process.env.TEST_DATABASE_URL ? { database: 'postgres' } : {});
  const base = await t.listen();
  const companyId = await t.seed.company('Atelier Nordlys');
  await t.seed.member(companyId, await t.seed.user({ email: 'admin@nordlys.test' }), 'admin');
  const { access } = await t.login('admin@nordlys.test');
  const auth = t.headers(access, companyId);
  const json = { ...auth, 'content-type': 'application/json' };

  let passages = 0;
  for (const article of KNOWLEDGE) {
    let res: Response;
    if (article.upload) {
      const form = new FormData();
      form.append('title', article.title);
      form.append('file', new Blob([article.body], { type: 'text/markdown' }), article.upload);
      res = await fetch(`${base}/api/knowledge/upload/`, { method: 'POST', headers: auth, body: form });
    } else {
      res = await fetch(`${base}/api/knowledge/`, { method: 'POST', headers: json, body: JSON.stringify({ title: article.title, body: article.body }) });
    }
    if (res.status !== 201) throw new Error(`knowledge "${article.title}" answered ${res.status} ${await res.text()}`);
    passages += ((await res.json()) as KnowledgeItem).passage_count;
  }

  const answerable = QUESTIONS.filter((q) => q.expect !== 'unanswerable').length;
  console.log(`${cpus().length} CPUs, load average ${load()} (1, 5, 15 min) at the start`);
  console.log(`knowledge: ${KNOWLEDGE.length} items, ${passages} passages; ${QUESTIONS.length} questions (${answerable} answerable, ${QUESTIONS.length - answerable} not), ${INJECTIONS.length} injection attempts`);

  const settingsOf = (provider: ProviderName): AssistantSettingsPatch => {
    const threshold = THRESHOLD === undefined ? {} : { threshold: THRESHOLD };
    if (provider === 'local') return { provider: 'local', ...threshold };
    if (provider === 'fake') return { provider: 'openai-compatible', base_url: `${base}/dev/llm/v1`, model: 'fake-shop-assistant', api_key: 'sk-bench', timeout_ms: TIMEOUT_MS, ...threshold };
    return { provider: 'openai-compatible', base_url: BASE_URL!, model: MODEL!, api_key: API_KEY ?? null, timeout_ms: TIMEOUT_MS, ...threshold };
  };
  const labelOf = (provider: ProviderName) => (provider === 'local' ? 'local' : provider === 'fake' ? 'fake model (/dev/llm, fake-shop-assistant)' : `${MODEL} at ${BASE_URL}`);

  const ask = async (question: string): Promise<{ response: AskResponse; ms: number }> => {
    const started = performance.now();
    const res = await fetch(`${base}/api/assistant/ask/`, { method: 'POST', headers: json, body: JSON.stringify({ question }) });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`ask "${question}" answered ${res.status} ${body}`);
    return { response: JSON.parse(body) as AskResponse, ms };
  };

  // The floor: what any request takes on this machine now (GET /api/health/, one at a time), beside the answers' times.
  const floor: number[] = [];
  for (let i = 0; i < FLOOR_SAMPLES; i++) {
    const started = performance.now();
    await (await fetch(`${base}/api/health/`)).arrayBuffer();
    floor.push(performance.now() - started);
  }
  floor.sort((a, b) => a - b);
  if (floor.length > 0) console.log(`floor: GET /api/health/ p50 ${percentile(floor, 50).toFixed(1)} / p95 ${percentile(floor, 95).toFixed(1)} ms (n=${floor.length})`);

  const all: Figures[] = [];
  for (const provider of PROVIDERS as ProviderName[]) {
    const res = await fetch(`${base}/api/assistant/settings/`, { method: 'PATCH', headers: json, body: JSON.stringify(settingsOf(provider)) });
    if (res.status !== 200) throw new Error(`settings for ${provider} answered ${res.status} ${await res.text()}`);
    const { threshold } = (await res.json()) as { threshold: number };
    // One question first, not counted: the first answer also loads and compiles the code on its path.
    await ask('What are your opening hours?');
    const outcomes: Outcome[] = [];
    for (const q of QUESTIONS) {
      const { response, ms } = await ask(q.question);
      outcomes.push(judgeQuestion(q, response, ms));
    }
    for (const q of INJECTIONS) {
      const { response, ms } = await ask(q.question);
      outcomes.push(judgeInjection(q, response, ms));
    }
    const figures = figuresOf(`${labelOf(provider)}, threshold ${threshold}`, outcomes);
    printProvider(figures, outcomes);
    all.push(figures);
  }
  printTable(all);
  console.log(`\nload average ${load()} at the end`);
  await t.close();
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
