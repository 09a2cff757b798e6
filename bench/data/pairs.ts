/**
 * Two sides' CPU per request in-process, in alternating rounds (issue #26). On a shared VM the CPU a request costs
 * drifts by ±15 % from one minute to the next, as much as the gap to measure: two sides run one after the other
 * (allocations.ts `CPU_ONLY=1`) can each land on a different minute. Here both sides stay up, each in its own
 * process (allocations.ts, forked: its app built on the bench's PostgreSQL data, warmed up), and serve short rounds
 * in turn, A B B A …; each pair of neighbouring rounds gives one ratio, and the median of the ratios is the figure.
 *
 *   npx tsx bench/data/pairs.ts                                     # ours against the floor, GET /api/members/
 *   npx tsx bench/data/pairs.ts --path '/api/stats/dashboard/?tz=UTC' --rounds 30 --n 500
 *   npx tsx bench/data/pairs.ts --b /work/before                    # this checkout against another one's server
 *
 * A side is `floor` (floor.ts's handler on the statements the last `run.ts --floor` captured) or a checkout's root
 * (its own allocations.ts and server). Run `run.ts --db postgres` once first (and `--floor` for the floor's plan).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    path: { type: 'string', default: '/api/members/' },
    a: { type: 'string', default: '.' },
    b: { type: 'string', default: 'floor' },
    rounds: { type: 'string', default: '24' },
    n: { type: 'string', default: '600' },
  },
});
const rounds = Number(args.rounds);
const n = Number(args.n);

interface RoundCpu {
  user: number;
  system: number;
}

interface Side {
  name: string;
  child: ChildProcess;
  round(): Promise<RoundCpu>;
}

function start(side: string): Promise<Side> {
  const floor = side === 'floor';
  const root = floor ? '.' : side;
  const child = fork(path.resolve(root, 'bench/data/allocations.ts'), [], {
    cwd: path.resolve(root),
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, URL_PATH: args.path, ...(floor ? { FLOOR: '1' } : {}) },
  });
  let pending: ((cpu: RoundCpu) => void) | null = null;
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${side} exited (${code}) before it was ready`)));
    child.on('message', (message: { ready?: boolean } & RoundCpu) => {
      if (message.ready) {
        resolve({
          name: side,
          child,
          round: () =>
            new Promise((done) => {
              pending = done;
              child.send({ n });
            }),
        });
      } else pending?.(message);
    });
  });
}

const median = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const perRequest = (cpu: RoundCpu) => (cpu.user + cpu.system) / 1000 / n;

const [a, b] = await Promise.all([start(args.a), start(args.b)]);
console.log(`${args.path}: A = ${a.name}, B = ${b.name}; ${rounds} rounds of ${n} requests each side, A B B A …`);
const aRounds: RoundCpu[] = [];
const bRounds: RoundCpu[] = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [a, b] : [b, a];
  for (const side of order) (side === a ? aRounds : bRounds).push(await side.round());
}
const ratios = aRounds.map((cpu, i) => perRequest(cpu) / perRequest(bRounds[i]));
const quartiles = (xs: number[]) => {
  const s = [...xs].sort((x, y) => x - y);
  return [s[Math.floor(s.length / 4)], s[Math.floor((3 * s.length) / 4)]];
};
const describe = (cpu: RoundCpu[]) =>
  `${median(cpu.map(perRequest)).toFixed(3)} ms (user ${median(cpu.map((c) => c.user / 1000 / n)).toFixed(3)}, system ${median(cpu.map((c) => c.system / 1000 / n)).toFixed(3)})`;
const [q1, q3] = quartiles(ratios);
console.log(`  A: ${describe(aRounds)} of CPU a request (median of rounds)`);
console.log(`  B: ${describe(bRounds)}`);
console.log(`  A ÷ B: median of the ${rounds} pairs' ratios ${median(ratios).toFixed(3)}× (quartiles ${q1.toFixed(3)}–${q3.toFixed(3)})`);
a.child.kill();
b.child.kill();
