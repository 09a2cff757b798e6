import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { FORMULA_START_CHARACTERS, neutraliseFormula, toCsv } from './csv';

const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/** The CSV read back as papaparse reads it (delimiter and line break given: no guessing). */
function parsed(text: string): string[][] {
  return Papa.parse<string[]>(text, { delimiter: ',', newline: '\r\n' }).data;
}

const formulaStart = fc.constantFrom(...FORMULA_START_CHARACTERS);
/** Any text, with a good share starting with a formula character or shaped like a signed number. */
const anyText = fc.oneof(
  fc.string(),
  fc.tuple(formulaStart, fc.string()).map(([first, rest]) => first + rest),
  fc.tuple(fc.constantFrom('+', '-'), fc.stringMatching(/^\d{1,15}(\.\d{1,4})?$/)).map(([sign, digits]) => sign + digits),
  fc.constantFrom('a,b', 'say "hi"', 'two\r\nlines', ' padded ', '\r', '\t'),
);
const safeText = anyText.filter((s) => !FORMULA_START_CHARACTERS.some((c) => s.startsWith(c)) || PLAIN_NUMBER.test(s));

/** A header and rows of the same width. */
function table(cell: fc.Arbitrary<string>) {
  return fc.integer({ min: 1, max: 5 }).chain((width) =>
    fc.record({
      columns: fc.array(fc.stringMatching(/^[a-z_]{1,12}$/), { minLength: width, maxLength: width }),
      rows: fc.array(fc.array(cell, { minLength: width, maxLength: width }), { maxLength: 8 }),
    }),
  );
}

describe('toCsv', () => {
  it('quotes what needs it and separates lines with CRLF, with no trailing line break', () => {
    expect(toCsv([['Ann', 'a,b', 'say "hi"', ' x'], ['two\nlines', '', null, undefined]], ['name', 'c2', 'c3', 'c4'])).toBe(
      'name,c2,c3,c4\r\nAnn,"a,b","say ""hi"""," x"\r\n"two\nlines",,,',
    );
    expect(toCsv([], ['name', 'phone'])).toBe('name,phone');
    expect(toCsv([])).toBe('');
  });

  it('prefixes a text cell starting a formula with a quote (=, +, -, @, tab, CR)', () => {
    expect(toCsv([['=HYPERLINK("http://x")', '+A1', '-2+3+cmd', '@SUM(A1)', '\tx', '\rx', '-']])).toBe(
      `"'=HYPERLINK(""http://x"")","'+A1","'-2+3+cmd","'@SUM(A1)","'\tx","'\rx","'-"`,
    );
  });

  it('keeps numbers, and text that is one plain signed number (E.164 phones, "-5"), as they are', () => {
    expect(toCsv([[-5, 1.5, 0, '-5', '+33612345678', '-0.25', true]])).toBe('-5,1.5,0,-5,+33612345678,-0.25,true');
    // More than a plain number is text to neutralise, even when it looks like a phone.
    expect(toCsv([['+1 (415) 555-0123', '-5+1', '+1e3', '-.5']])).toBe(`"'+1 (415) 555-0123","'-5+1","'+1e3","'-.5"`);
  });

  it('writes object rows by the columns given, or the first row’s keys', () => {
    expect(toCsv([{ phone: '+14155550123', name: '=1+1' }, { name: 'Jo' }], ['name', 'phone'])).toBe(`name,phone\r\n"'=1+1",+14155550123\r\nJo,`);
    expect(toCsv([{ a: 1, b: 'x' }])).toBe('a,b\r\n1,x');
  });

  it('round-trips safe cells through Papa.parse', () => {
    fc.assert(
      fc.property(table(safeText), ({ columns, rows }) => {
        expect(parsed(toCsv(rows, columns))).toEqual([columns, ...rows]);
      }),
    );
  });

  it('never writes a cell a spreadsheet would run: every formula cell reads back with its leading quote', () => {
    fc.assert(
      fc.property(table(anyText), ({ columns, rows }) => {
        const back = parsed(toCsv(rows, columns));
        expect(back).toEqual([columns, ...rows.map((row) => row.map(neutraliseFormula))]);
        for (const cell of back.flat()) {
          const startsFormula = FORMULA_START_CHARACTERS.some((c) => cell.startsWith(c));
          expect(!startsFormula || PLAIN_NUMBER.test(cell), JSON.stringify(cell)).toBe(true);
        }
      }),
    );
  });
});

describe('neutraliseFormula', () => {
  it('applies the same rule to a single cell, and a second time changes nothing', () => {
    expect(['=1', '+33612345678', '-5', '-x', 'Ann'].map(neutraliseFormula)).toEqual(["'=1", '+33612345678', '-5', "'-x", 'Ann']);
    fc.assert(fc.property(anyText, (text) => {
        expect(neutraliseFormula(neutraliseFormula(text))).toBe(neutraliseFormula(text));
      }),
    );
  });
});
