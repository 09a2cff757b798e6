/**
 * jsdom's `getComputedStyle` matches the element against every rule of every style sheet, and Testing Library
 * calls it for each node a role query looks at (visibility of the element and its ancestors, and of each node of
 * an accessible name). MUI's emotion writes hundreds of rules per page, almost all of them layout, spacing and
 * typography that jsdom computes nothing from. In the console's unit tests that matching was a third of the CPU
 * (the flow editor's file: 32 s, 16 s without it; the whole project 144 → 117 s here; issue #20).
 *
 * So the unit tests keep, of each rule emotion inserts, only the declarations a test can observe through jsdom:
 * what hides an element (`display`, `visibility`, `opacity`, `pointer-events`, `content`) and what a test reads
 * (`text-transform`). A rule left empty is not inserted. Browsers (Playwright) see every rule, as users do.
 */
import { compile, DECLARATION, serialize, stringify, type Middleware } from 'stylis';

const OBSERVABLE_PROPERTIES = new Set(['display', 'visibility', 'opacity', 'pointer-events', 'content', 'text-transform']);

const keepObservable: Middleware = (element, index, children, callback) =>
  element.type === DECLARATION && !OBSERVABLE_PROPERTIES.has(element.props as string) ? '' : stringify(element, index, children, callback);

/** One compiled rule as emotion hands it to its sheet, reduced to what jsdom can observe ('' when nothing is). */
export function observableRule(rule: string): string {
  return serialize(compile(rule), keepObservable);
}

// A mark on the sheet itself: the setup file runs before each test file, the sheet lives as long as the worker.
const REDUCED: unique symbol = Symbol.for('console.tests.observableRulesOnly');
type InsertingSheet = { insert(rule: string): void; [REDUCED]?: true };

/** Makes `sheet` (the default emotion cache's) insert only the observable part of each rule. Idempotent. */
export function insertObservableRulesOnly(sheet: InsertingSheet): void {
  if (sheet[REDUCED]) return;
  sheet[REDUCED] = true;
  const insert = sheet.insert.bind(sheet);
  sheet.insert = (rule: string) => {
    const kept = observableRule(rule);
    if (kept) insert(kept);
  };
}
