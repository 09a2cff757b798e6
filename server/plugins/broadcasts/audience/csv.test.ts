/** The CSV audience rules: E.164, bad rows by row number and reason (good rows kept), de-duplication, columns. */
import { describe, expect, it } from 'vitest';
import { CSV_ROW_REASONS } from '../../../../contract/broadcasts';
import { parseCsvRows, parseCsvText } from './csv';
import { Slicer } from './slices';
import { toE164 } from './phone';

async function parsed(text: string) {
  const result = await parseCsvText(text);
  if (!result.ok) throw new Error(result.error);
  return result.value;
}

describe('phone numbers to E.164', () => {
  it.each([
    ['+1 415 555 0123', '+14155550123'],
    ['14155550123', '+14155550123'],
    ['(+33) 6 12 34 56 78', '+33612345678'],
    ['0033612345678', '+33612345678'],
    ['+44 7911 123456', '+447911123456'],
  ])('%s → %s', (raw, e164) => expect(toE164(raw)).toBe(e164));

  it.each(['', 'abc', '+1555', '12', '+33 6 12', 'call me', '+1 415 555 0123 ext 5'])('%j is not a valid number', (raw) => expect(toE164(raw)).toBeNull());
});

describe('CSV audience', () => {
  it('keeps the good rows and reports each bad one by its row number (header = row 1) and reason', async () => {
    const v = await parsed('phone,name,coupon\n+14155550123,Ana,A1\nnot-a-number,Bob,B2\n,Carla,C3\n+33612345678,Dan,D4\n');
    expect(v.phoneColumn).toBe('phone');
    expect(v.nameColumn).toBe('name');
    expect(v.columns).toEqual(['phone', 'name', 'coupon']);
    expect(v.recipients.map((r) => [r.row, r.phone, r.name, r.values.coupon])).toEqual([
      [2, '+14155550123', 'Ana', 'A1'],
      [5, '+33612345678', 'Dan', 'D4'],
    ]);
    expect(v.badRows).toEqual([
      { row: 3, reason: CSV_ROW_REASONS.invalidPhone, value: 'not-a-number' },
      { row: 4, reason: CSV_ROW_REASONS.missingPhone },
    ]);
    expect(v.invalid).toBe(2);
    expect(v.total).toBe(4);
  });

  it('de-duplicates by the E.164 number, however it was written, keeping the first row', async () => {
    const v = await parsed('Phone Number;Name\n+1 (415) 555-0123;First\n14155550123;Second\n+14155550124;Other\n');
    expect(v.phoneColumn).toBe('Phone Number');
    expect(v.recipients.map((r) => r.name)).toEqual(['First', 'Other']);
    expect(v.duplicates).toBe(1);
    expect(v.badRows).toEqual([{ row: 3, reason: `${CSV_ROW_REASONS.duplicate} (row 2)`, value: '+14155550123' }]);
  });

  it('reads quoted cells with commas and line breaks as one row; row numbers follow the records; blank lines are skipped', async () => {
    const v = await parsed('\uFEFFname,phone,note\n"Doe, Jane",+14155550123,"two\nlines"\n\n"Roe, Rick",bad,x\n');
    expect(v.recipients).toHaveLength(1);
    expect(v.recipients[0]).toMatchObject({ name: 'Doe, Jane', values: { note: 'two\nlines' } });
    expect(v.badRows.map((b) => b.row)).toEqual([4]);
  });

  it('a row with more cells than the header is bad; a short row keeps empty values', async () => {
    const v = await parsed('phone,name\n+14155550123\n+14155550124,Bo,extra\n');
    expect(v.recipients.map((r) => [r.phone, r.name])).toEqual([['+14155550123', '']]);
    expect(v.badRows).toEqual([{ row: 3, reason: CSV_ROW_REASONS.tooManyColumns }]);
  });

  it('refuses a file without a phone column or without rows; a column whose name says phone or number is the phone', async () => {
    expect(await parseCsvText('name,city\nAna,Paris\n')).toEqual({ ok: false, error: 'noPhoneColumn' });
    expect(await parseCsvText('\n\n')).toEqual({ ok: false, error: 'empty' });
    expect((await parsed('numbers\n+14155550123\n')).recipients).toHaveLength(1);
  });

  it('applies the same rules to rows sent back as objects (row i is the file’s row i + 2)', async () => {
    const result = await parseCsvRows([{ phone: '+14155550123', name: 'Ana' }, { phone: 'x', name: 'Bad' }, { phone: '+1 415 555 0123', name: 'Dup' }]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.recipients.map((r) => r.row)).toEqual([2]);
    expect(result.value.badRows.map((b) => b.row)).toEqual([3, 4]);
  });

  it('reads a file cut into small chunks exactly as in one piece (quoted line breaks and blank lines across chunk ends)', async () => {
    const lines = ['phone,name,note'];
    for (let i = 0; i < 300; i += 1) lines.push(i % 7 === 0 ? '' : `+1415555${String(1000 + i)},"Name, ${i}","two\nlines ${i}"`);
    const text = `${lines.join('\n')}\n`;
    const whole = await parseCsvText(text, { chunkBytes: text.length + 1 });
    const chunked = await parseCsvText(text, { chunkBytes: 37 });
    expect(chunked).toEqual(whole);
    expect(whole.ok && whole.value.recipients).toHaveLength(257);
  });
});

describe('a large file does not hold the event loop', () => {
  const big = ['phone,name', ...Array.from({ length: 6_000 }, (_, i) => `+1415${String(5_000_000 + i)},Person ${i}`)].join('\n');

  it('yields between chunks and slices: a callback queued after the read starts runs before the read ends', async () => {
    const slicer = new Slicer();
    let finished = false;
    const reading = parseCsvText(big, { slicer }).then((result) => {
      finished = true;
      return result;
    });
    // setImmediate runs on the loop's next turn: a read that never yields would have finished by then.
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished).toBe(false);
    const result = await reading;
    expect(result.ok && result.value.recipients).toHaveLength(6_000);
    // At least once per papaparse chunk (the file is several chunks long).
    expect(slicer.yields).toBeGreaterThanOrEqual(Math.floor(big.length / (64 * 1024)));
  });

  it('rows sent back as objects are checked in slices too', async () => {
    const rows = Array.from({ length: 2_000 }, (_, i) => ({ phone: `+1415${String(5_000_000 + i)}`, name: `P${i}` }));
    // A slice of 0 ms yields after every row: the structure, not the machine's speed, is what is checked.
    const slicer = new Slicer(0);
    const result = await parseCsvRows(rows, slicer);
    expect(result.ok && result.value.recipients).toHaveLength(2_000);
    expect(slicer.yields).toBeGreaterThanOrEqual(2_000);
  });
});
