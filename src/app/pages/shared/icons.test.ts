import * as mdi from '@mdi/js';
import { describe, expect, it } from 'vitest';
import * as icons from './icons';

describe("the signed-out pages' icons", () => {
  it('are the @mdi/js paths of the same names', () => {
    for (const [name, path] of Object.entries(icons)) expect(path, name).toBe((mdi as Record<string, string>)[name]);
  });
});
