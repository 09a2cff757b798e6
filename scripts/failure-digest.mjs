// What a failed end-to-end test saw, printed at the end of `npm test`: CI keeps only the tail of the
// output, not test-results/, so without this a failure on the CI machine leaves its error line and
// nothing of the page. For each failed test (at most `maxTests`), the first lines of each
// `error-context` attachment Playwright wrote (the ARIA snapshot of the page when it failed).
import { existsSync, readFileSync } from 'node:fs';

/** Every test result of a Playwright JSON report, with the title path of its spec. */
function* results(suite, titles = []) {
  const path = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? []) {
    for (const test of spec.tests ?? []) {
      for (const result of test.results ?? []) yield { title: [...path, spec.title].join(' › '), result };
    }
  }
  for (const child of suite.suites ?? []) yield* results(child, path);
}

/**
 * The snapshot without the console's chrome (the top bar and the menu, the same on every page), so the
 * lines kept show the page itself: a `banner`, `menu` or `navigation` node and everything indented under it.
 */
export function withoutChrome(lines) {
  const out = [];
  let skipUnder = -1;
  for (const line of lines) {
    const indent = line.length - line.trimStart().length;
    if (skipUnder >= 0 && indent > skipUnder) continue;
    skipUnder = -1;
    if (/^- (banner|menu|navigation)\b/.test(line.trimStart())) {
      skipUnder = indent;
      out.push(`${line.replace(/:$/, '')} (left out)`);
      continue;
    }
    out.push(line);
  }
  return out;
}

/** The digest's lines for a Playwright JSON report (empty when nothing failed). */
export function failureDigest(report, { maxTests = 3, maxLines = 120 } = {}) {
  const failures = [];
  for (const suite of report?.suites ?? []) {
    for (const r of results(suite)) if (r.result.status !== 'passed' && r.result.status !== 'skipped') failures.push(r);
  }
  const lines = [];
  for (const { title, result } of failures.slice(0, maxTests)) {
    lines.push('', `--- what the page showed when it failed: ${title} (${result.status}, ${Math.round((result.duration ?? 0) / 1000)} s)`);
    const contexts = (result.attachments ?? []).filter((a) => a.name === 'error-context' && a.path && existsSync(a.path));
    if (!contexts.length) lines.push('(no error context was written)');
    for (const attachment of contexts) {
      const text = withoutChrome(readFileSync(attachment.path, 'utf8').split('\n'));
      // The snapshot section, not the error Playwright already printed above.
      const start = Math.max(0, text.findIndex((line) => /page snapshot/i.test(line)));
      const shown = text.slice(start, start + maxLines);
      lines.push(...shown);
      if (text.length - start > maxLines) lines.push(`… ${text.length - start - maxLines} more lines in ${attachment.path}`);
    }
  }
  if (failures.length > maxTests) lines.push('', `… and ${failures.length - maxTests} more failed tests (their contexts are in test-results-*)`);
  return lines;
}
