import pg from 'pg';
import { readFileSync } from 'node:fs';
const plan = JSON.parse(readFileSync('/tmp/dash-plan.json', 'utf8'));
const client = new pg.Client({ connectionString: 'postgres://root@127.0.0.1:5432/bench_data' });
await client.connect();
const st = Object.values(plan)[0];
for (const i of [1, 3]) {
  const s = st[i];
  for (let k = 0; k < 3; k++) await client.query({ text: s.sql, values: s.params });
  const plans = [], execs = [];
  for (let k = 0; k < 9; k++) {
    const r = await client.query({ text: 'explain (summary, format json) ' + s.sql, values: s.params });
    plans.push(r.rows[0]['QUERY PLAN'][0]['Planning Time']);
    const a = await client.query({ text: 'explain (analyze, summary, timing off, format json) ' + s.sql, values: s.params });
    execs.push(a.rows[0]['QUERY PLAN'][0]['Execution Time']);
  }
  const med = (a) => a.sort((x, y) => x - y)[4].toFixed(2);
  console.log(i, 'planning', med(plans), 'execution', med(execs));
  if (process.argv[2] == i) {
    const r = await client.query({ text: 'explain (analyze, buffers) ' + s.sql, values: s.params });
    console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
  }
}
await client.end();
