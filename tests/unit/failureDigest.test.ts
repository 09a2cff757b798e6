/** The failure digest `npm test` prints before its closing line (scripts/failure-digest.mjs): what a failed end-to-end test's page showed. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { failureDigest, withoutChrome } from '../../scripts/failure-digest.mjs';

function reportWith(results: object[]) {
  return { suites: [{ title: 'flows.spec.ts', specs: [], suites: [{ title: 'group', specs: [{ title: 'a flow runs', tests: [{ results }] }] }] }] };
}

describe('failureDigest', () => {
  it('prints the page snapshot of each failed test, under its title path, and nothing for a passed one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'digest-'));
    const context = path.join(dir, 'error-context.md');
    writeFileSync(context, '# Test info\n- Name: a flow runs\n# Page snapshot\n```yaml\n- log "thread": See you soon.\n```\n');
    const lines = failureDigest(reportWith([{ status: 'failed', duration: 61_000, attachments: [{ name: 'error-context', path: context }] }]));
    expect(lines).toContain('--- what the page showed when it failed: flows.spec.ts › group › a flow runs (failed, 61 s)');
    expect(lines).toContain('- log "thread": See you soon.');
    expect(lines).not.toContain('- Name: a flow runs');
    expect(failureDigest(reportWith([{ status: 'passed', attachments: [] }]))).toEqual([]);
  });

  it('says when no context was written, trims long snapshots and counts the failures it leaves out', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'digest-'));
    const context = path.join(dir, 'error-context.md');
    writeFileSync(context, ['# Page snapshot', ...Array.from({ length: 10 }, (_, i) => `line ${i}`)].join('\n'));
    const timedOut = { status: 'timedOut', duration: 240_000, attachments: [{ name: 'error-context', path: context }] };
    const lines = failureDigest(reportWith([timedOut, { status: 'failed', attachments: [] }]), { maxTests: 1, maxLines: 4 });
    expect(lines).toContain('line 2');
    expect(lines).not.toContain('line 3');
    expect(lines.some((l) => l.startsWith('… 7 more lines in '))).toBe(true);
    expect(lines).toContain('… and 1 more failed tests (their contexts are in test-results-*)');
    expect(failureDigest(reportWith([{ status: 'failed', attachments: [] }]))).toContain('(no error context was written)');
  });

  it('leaves out the top bar and the menu, the same on every page, and keeps the page', () => {
    const snapshot = ['- banner:', '  - button "Profile"', '- main:', '  - menu:', '    - menuitem "Chats"', '  - heading "Chats" [level=1]', '  - log:', '    - paragraph: See you soon.'];
    expect(withoutChrome(snapshot)).toEqual(['- banner (left out)', '- main:', '  - menu (left out)', '  - heading "Chats" [level=1]', '  - log:', '    - paragraph: See you soon.']);
  });
});
