/**
 * The walk the input checks share (the NUL check, nul.ts; the malformed-text check, errors.ts): the dotted path
 * (`message.text`, `invites.0.email`) of the first string or object key a check refuses, or null. Iterative (an
 * explicit stack, no recursion), one visit per value: linear in the input, which the body limit and the JSON depth
 * limit bound. Every input of every request is walked and almost none is refused, so a first pass looks without
 * building paths; they are worked out only for an input that has refused text.
 */
export interface TextCheck {
  /** Text (a string or a key) the check refuses. */
  refuses(text: string): boolean;
  /** The objects the walk looks into (arrays it always does). */
  looksInto(value: unknown): value is Record<string, unknown>;
  /** A refused key as the path spells it (the refused character itself would be unreadable there). */
  printKey(key: string): string;
  /** The path of a refused string that is the value itself. */
  rootField: string;
}

export function findRefusedText(value: unknown, check: TextCheck): string | null {
  if (!holdsRefusedText(value, check)) return null;
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    if (typeof current === 'string') {
      if (check.refuses(current)) return path || check.rootField;
    } else if (Array.isArray(current)) {
      // Pushed in reverse so the first offending element is the one reported.
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: at(String(i)) });
    } else if (check.looksInto(current)) {
      const keys = Object.keys(current);
      for (const key of keys) if (check.refuses(key)) return at(check.printKey(key));
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ value: current[keys[i]], path: at(keys[i]) });
    }
  }
  return null;
}

/** Whether any string or key of `root` is refused: the same walk without the paths (nothing kept per value). */
function holdsRefusedText(root: unknown, check: TextCheck): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current === 'string') {
      if (check.refuses(current)) return true;
    } else if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
    } else if (check.looksInto(current)) {
      for (const key of Object.keys(current)) {
        if (check.refuses(key)) return true;
        stack.push(current[key]);
      }
    }
  }
  return false;
}
