/**
 * Where a page's main thread goes on a phone: a cold load of one signed-in page under 4× CPU, its CPU profile
 * mapped to the sources through the build's source maps, cut into the stretches of busy time that make the
 * blocking time (each > --min ms), each with its heaviest functions (self and inclusive), packages, and our own
 * source's frames.
 *
 *   npx vite build --manifest --outDir /tmp/lhdist          # source maps beside each chunk
 *   (serve it: see bench/bundle/README.md, "the phone")
 *   npx tsx bench/bundle/profile.ts --url http://localhost:8383/chats [--dist /tmp/lhdist] [--min 100] [--runs 5]
 *
 * `--runs N` loads the page N times and prints each run's blocking time (the part over 50 ms of every long task,
 * from the start of navigation) and their median, without the breakdown: the figure to compare before and after a
 * change, since one load's blocking time varies by a third on a shared 2-core machine, and the main thread's time in
 * script and in the browser's own work (style, layout, paint), steadier. Prints figures only.
 *
 * `--network` also applies Lighthouse's mobile network (1.6 Mbps down, 750 Kbps up, 150 ms) and prints the load as
 * one timeline: each request and socket frame, each busy stretch with the frames of ours it is under, the largest
 * contentful paints: what the page waits on, in order (a room's thread waiting on the socket, the socket on a chunk).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { SourceMapConsumer } from 'source-map';

const argv = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : fallback;
};
const URL_ = arg('--url', 'http://localhost:8383/chats');
const DIST = path.join(arg('--dist', '/tmp/lhdist'), 'assets');
const MIN_MS = Number(arg('--min', '100'));
const RUNS = Number(arg('--runs', '1'));
/** `--save <file>`: the (last) load's raw CPU profile, for DevTools' Performance panel or a script of one's own. */
const SAVE = arg('--save', '');
const NETWORK = argv.includes('--network');
/**
 * `--ready <css selector>`: also times when the page first shows an element matching it (the frame after it entered
 * the page): the open room's first message, say (`[data-testid=message-text]`). The largest contentful paint of a
 * page whose largest element is its header moves from run to run with which element won; this does not.
 */
const READY = arg('--ready', '');

/** What the `--ready` script uses of the page's globals (this file is checked without the DOM's types). */
interface PageGlobals {
  document: { querySelector(selector: string): unknown };
  MutationObserver: new (callback: (records: unknown, observer: { disconnect(): void }) => void) => { observe(target: unknown, options: { childList: boolean; subtree: boolean }): void };
  requestAnimationFrame(callback: () => void): void;
  __ready?: number;
}
const DEMO = { email: 'admin@demo.test', password: process.env.DEMO_PASSWORD ?? 'Demo-Console-2026', company: /Demo Company/ };

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/auth/login`);
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/(dashboard|company\/select)/);
  if (page.url().includes('/company/select')) {
    await page.getByRole('option', { name: DEMO.company }).or(page.getByRole('button', { name: DEMO.company })).first().click();
    await page.waitForURL(/\/dashboard/);
  }
  // The first signed-in page as a returning user leaves it (what it remembers, e.g. the time zone), before the loads.
  await page.waitForLoadState('networkidle');
}

/** One cold load (no HTTP cache) of the page under 4× CPU: its CPU profile and its long tasks. */
async function load(page: Page): Promise<{ profile: CpuProfile; longTasks: [number, number][]; events: [number, string][]; paints: [number, string][]; ready: number }> {
  await page.goto('about:blank');
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  // Network events on the profiler's clock (both are the browser's monotonic time), in ms.
  const events: [number, string][] = [];
  if (NETWORK) {
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
    const origin = new URL(URL_).origin;
    const urls = new Map<string, string>();
    const at = (seconds: number) => seconds * 1000;
    cdp.on('Network.requestWillBeSent', (e: { requestId: string; timestamp: number; request: { url: string } }) => {
      urls.set(e.requestId, e.request.url.replace(origin, ''));
      events.push([at(e.timestamp), `→ ${urls.get(e.requestId)}`]);
    });
    cdp.on('Network.loadingFinished', (e: { requestId: string; timestamp: number; encodedDataLength: number }) =>
      events.push([at(e.timestamp), `← ${urls.get(e.requestId)} (${(e.encodedDataLength / 1024).toFixed(1)} KB)`]),
    );
    cdp.on('Network.webSocketHandshakeResponseReceived', (e: { timestamp: number }) => events.push([at(e.timestamp), 'socket open']));
    cdp.on('Network.webSocketFrameSent', (e: { timestamp: number; response: { payloadData: string } }) => events.push([at(e.timestamp), `socket → ${e.response.payloadData.slice(0, 70)}`]));
    cdp.on('Network.webSocketFrameReceived', (e: { timestamp: number; response: { payloadData: string } }) => events.push([at(e.timestamp), `socket ← ${e.response.payloadData.slice(0, 70)}`]));
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(URL_);
  await page.waitForLoadState('networkidle');
  // A socket keeps no request open: "network idle" can come before the page's data does (the open room's join).
  if (READY) await page.waitForFunction(() => ((globalThis as unknown as { __ready?: number }).__ready ?? -1) > 0, undefined, { timeout: 30_000 }).catch(() => undefined);
  await page.waitForTimeout(3_000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
  const longTasks = await page.evaluate(() => (globalThis as unknown as { __longTasks: [number, number][] }).__longTasks);
  const paints = await page.evaluate(() => (globalThis as unknown as { __paints: [number, string][] }).__paints);
  const ready = await page.evaluate(() => (globalThis as unknown as { __ready?: number }).__ready ?? NaN);
  await cdp.detach();
  return { profile, longTasks, events, paints, ready };
}

const blocking = (tasks: [number, number][]) => tasks.reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);

/**
 * The main thread's time in the profile: running script (garbage collection included) and the browser's own work
 * outside script ("(program)": style, layout, paint, parsing). Steadier than the blocking time, which moves with how
 * the same work falls into tasks; a layout forced from script counts as script, the same layout left to the frame
 * as the browser's.
 */
function mainThread(profile: CpuProfile): { scriptMs: number; browserMs: number } {
  const names = new Map(profile.nodes.map((node) => [node.id, node.callFrame.functionName]));
  let script = 0;
  let browser = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const name = names.get(id);
    if (name === '(program)') browser += ms;
    else if (name !== '(idle)') script += ms;
  });
  return { scriptMs: Math.round(script), browserMs: Math.round(browser) };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** Names a profile's frames by their original source (`name path:line`, packages as `nm:<package>/…`). */
function frameNamer(profile: CpuProfile) {
  const maps = new Map<string, SourceMapConsumer | null>();
  const names = new Map<number, string>();
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  return async (id: number): Promise<string> => {
    const known = names.get(id);
    if (known) return known;
    const frame = nodes.get(id)!.callFrame;
    let name = `${frame.functionName || '(anonymous)'} ${frame.url ? path.basename(frame.url) : ''}`.trim();
    if (frame.url.startsWith('http')) {
      const file = path.basename(new URL(frame.url).pathname);
      if (!maps.has(file)) {
        const mapFile = path.join(DIST, `${file}.map`);
        maps.set(file, existsSync(mapFile) ? await new SourceMapConsumer(JSON.parse(readFileSync(mapFile, 'utf8'))) : null);
      }
      const original = maps.get(file)?.originalPositionFor({ line: frame.lineNumber + 1, column: frame.columnNumber });
      if (original?.source) {
        let source = original.source.replace(/^.*node_modules\//, 'nm:').replace(/^(\.\.\/)+/, '').replace(/^.*?\/(src|contract)\//, '$1/');
        // A package's own map may name its sources src/… (stylis): ours only if the file is in this repository.
        if (/^(src|contract)\//.test(source) && !existsSync(source)) source = `nm:?/${source}`;
        name = `${original.name || frame.functionName || '(anonymous)'} ${source}:${original.line}`;
      }
    }
    names.set(id, name);
    return name;
  };
}

/** Each frame's caller, by node id. */
function callers(profile: CpuProfile): Map<number, number> {
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  return parent;
}

/** The profile's busy stretches (samples neither idle nor the browser's own work, gaps under 2 ms joined), in ms. */
function busyStretches(profile: CpuProfile): { start: number; end: number; samples: [number, number][] }[] {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const idle = (id: number) => ['(idle)', '(program)'].includes(nodes.get(id)!.callFrame.functionName);
  const stretches: { start: number; end: number; samples: [number, number][] }[] = [];
  let time = profile.startTime;
  let current: (typeof stretches)[number] | null = null;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i];
    const at = time / 1000;
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    if (idle(id)) {
      if (current && at - current.end > 2) {
        stretches.push(current);
        current = null;
      }
      return;
    }
    current ??= { start: at, end: at, samples: [] };
    current.end = at + dt;
    current.samples.push([id, dt]);
  });
  if (current) stretches.push(current);
  return stretches;
}

async function breakdown(profile: CpuProfile): Promise<void> {
  const parent = callers(profile);
  const name = frameNamer(profile);
  const stretches = busyStretches(profile);
  const top = (totals: Map<string, number>, n: number) =>
    [...totals].sort((a, b) => b[1] - a[1]).slice(0, n).map(([label, ms]) => `    ${ms.toFixed(1).padStart(7)} ms  ${label}`).join('\n');
  const add = (totals: Map<string, number>, key: string, ms: number) => totals.set(key, (totals.get(key) ?? 0) + ms);
  for (const stretch of stretches) {
    if (stretch.end - stretch.start < MIN_MS) continue;
    const self = new Map<string, number>();
    const inclusive = new Map<string, number>();
    const packages = new Map<string, number>();
    const own = new Map<string, number>();
    const ownInclusive = new Map<string, number>();
    for (const [id, ms] of stretch.samples) {
      const label = await name(id);
      add(self, label, ms);
      add(packages, label.match(/nm:((@[^/]+\/)?[^/]+)/)?.[1] ?? label.match(/ ((src|contract)\/[^/]+\/[^/]+)/)?.[1] ?? label.split(' ')[0], ms);
      const seen = new Set<string>();
      let ownFrame = '(no frame of ours)';
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const frame = await name(n);
        if (ownFrame === '(no frame of ours)' && / (src|contract)\//.test(frame)) ownFrame = frame;
        if (!seen.has(frame)) {
          add(inclusive, frame, ms);
          if (/ (src|contract)\//.test(frame)) add(ownInclusive, frame, ms);
        }
        seen.add(frame);
      }
      add(own, ownFrame, ms);
    }
    console.log(`\n=== busy from ${Math.round(stretch.start - profile.startTime / 1000)} ms for ${Math.round(stretch.end - stretch.start)} ms`);
    console.log(`  self:\n${top(self, 12)}\n  by package (self):\n${top(packages, 10)}\n  our nearest frame:\n${top(own, 12)}\n  inclusive:\n${top(inclusive, 25)}\n  our frames, inclusive (which of our components and calls the time is under):\n${top(ownInclusive, 25)}`);
  }
}

/**
 * The load in order: requests and socket frames, busy stretches (≥ --min ms) with the three frames of ours they are
 * most under, the largest contentful paints (page time: from navigation, as the long tasks are).
 */
async function timeline(profile: CpuProfile, events: [number, string][], paints: [number, string][], ready: number): Promise<void> {
  const name = frameNamer(profile);
  const parent = callers(profile);
  const navigation = events.find(([, what]) => what.startsWith('→ /') && !what.startsWith('→ /assets/'))?.[0] ?? profile.startTime / 1000;
  const lines: [number, string][] = events.map(([ms, what]) => [ms - navigation, what]);
  for (const stretch of busyStretches(profile)) {
    if (stretch.end - stretch.start < MIN_MS) continue;
    // Each sample under the outermost frame of ours above it (the component or call the time belongs to).
    const own = new Map<string, number>();
    for (const [id, ms] of stretch.samples) {
      let frame = '(no frame of ours)';
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const label = await name(n);
        if (/ (src|contract)\//.test(label)) frame = label.replace(/ (src|contract)\/.*\//, ' ');
      }
      own.set(frame, (own.get(frame) ?? 0) + ms);
    }
    const heaviest = [...own].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([frame, ms]) => `${frame} ${Math.round(ms)}`).join('; ');
    lines.push([stretch.start - navigation, `busy ${Math.round(stretch.end - stretch.start)} ms: ${heaviest}`]);
  }
  for (const [ms, element] of paints) lines.push([ms, `largest contentful paint: ${element}`]);
  if (READY) lines.push([ready, `${READY} shown`]);
  lines.sort((a, b) => a[0] - b[0]);
  for (const [ms, what] of lines) if (!/\.(svg|woff2?)( |$)/.test(what)) console.log(`${String(Math.round(ms)).padStart(7)} ms  ${what}`);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true });
  await context.addInitScript(() => {
    const tasks: [number, number][] = [];
    (globalThis as unknown as { __longTasks: [number, number][] }).__longTasks = tasks;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) tasks.push([Math.round(entry.startTime), Math.round(entry.duration)]);
    }).observe({ type: 'longtask', buffered: true } as never);
    const paints: [number, string][] = [];
    (globalThis as unknown as { __paints: [number, string][] }).__paints = paints;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as { startTime: number; element?: { tagName: string; textContent: string | null } | null }[])
        paints.push([Math.round(entry.startTime), entry.element ? `<${entry.element.tagName.toLowerCase()}> ${(entry.element.textContent ?? '').slice(0, 40)}` : '(element gone)']);
    }).observe({ type: 'largest-contentful-paint', buffered: true } as never);
  });
  if (READY)
    // No named function inside: tsx's transform would wrap it in a helper the page does not have.
    await context.addInitScript((selector: string) => {
      const page = globalThis as unknown as PageGlobals;
      new page.MutationObserver((_, observer) => {
        if (page.__ready !== undefined || !page.document.querySelector(selector)) return;
        page.__ready = -1;
        observer.disconnect();
        page.requestAnimationFrame(() => setTimeout(() => (page.__ready = Math.round(performance.now())), 0));
      }).observe(page.document, { childList: true, subtree: true });
    }, READY);
  const page = await context.newPage();
  await signIn(page, new URL(URL_).origin);
  const figures: number[] = [];
  const lcps: number[] = [];
  const readies: number[] = [];
  const scripts: number[] = [];
  const browsers: number[] = [];
  for (let run = 1; run <= RUNS; run++) {
    const { profile, longTasks, events, paints, ready } = await load(page);
    const { scriptMs, browserMs } = mainThread(profile);
    figures.push(blocking(longTasks));
    const lcp = paints.at(-1)?.[0] ?? NaN;
    lcps.push(lcp);
    readies.push(ready);
    scripts.push(scriptMs);
    browsers.push(browserMs);
    console.log(
      `run ${run}: ${READY ? `ready ${ready} ms; ` : ''}LCP ${lcp} ms; blocking ${blocking(longTasks)} ms; script ${scriptMs} ms, browser ${browserMs} ms; long tasks (start:duration ms) ${longTasks.map(([s, d]) => `${s}:${d}`).join(' ')}`,
    );
    if (SAVE) writeFileSync(SAVE, JSON.stringify(profile));
    if (NETWORK && RUNS === 1) await timeline(profile, events, paints, ready);
    else if (RUNS === 1) await breakdown(profile);
  }
  if (RUNS > 1) {
    const sorted = [...figures].sort((a, b) => a - b);
    console.log(`blocking over ${RUNS} loads: ${sorted.join(', ')} ms; median ${median(figures)} ms`);
    if (READY) console.log(`${READY} shown over ${RUNS} loads: ${[...readies].sort((a, b) => a - b).join(', ')} ms; median ${median(readies)} ms`);
    console.log(`largest contentful paint over ${RUNS} loads: ${[...lcps].sort((a, b) => a - b).join(', ')} ms; median ${median(lcps)} ms`);
    console.log(`main thread, medians over ${RUNS} loads: script ${median(scripts)} ms, browser ${median(browsers)} ms`);
  }
} finally {
  await browser.close();
}
