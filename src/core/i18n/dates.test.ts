import { afterEach, describe, expect, it, vi } from 'vitest';
import { dateTimeFormat, formatDate, prewarmDateFormats } from './dates';

describe('formatDate', () => {
  const at = new Date('2026-11-20T19:11:00Z');

  it('writes what toLocaleString writes, in each language and style', () => {
    for (const locale of ['en', 'fr', 'en-GB']) {
      for (const options of [{ dateStyle: 'medium', timeStyle: 'short' }, { hour: '2-digit', minute: '2-digit' }, { day: 'numeric', month: 'short' }, { dateStyle: 'full', timeStyle: 'short' }] as Intl.DateTimeFormatOptions[]) {
        expect(formatDate(at, locale, options)).toBe(at.toLocaleString(locale, options));
      }
    }
    expect(formatDate(at, 'fr', {})).toBe(at.toLocaleDateString('fr'));
  });

  it('takes ISO strings and answers nothing for no date or an invalid one', () => {
    expect(formatDate(at.toISOString(), 'en', { dateStyle: 'medium' })).toBe(at.toLocaleString('en', { dateStyle: 'medium' }));
    expect(formatDate(null, 'en', {})).toBe('');
    expect(formatDate('', 'en', {})).toBe('');
    expect(formatDate('not a date', 'en', {})).toBe('');
  });

  it('keeps one formatter per language and options, whatever their order', () => {
    const first = dateTimeFormat('fr', { hour: '2-digit', minute: '2-digit' });
    expect(dateTimeFormat('fr', { minute: '2-digit', hour: '2-digit' })).toBe(first);
    expect(dateTimeFormat('en', { hour: '2-digit', minute: '2-digit' })).not.toBe(first);
    expect(dateTimeFormat('fr', { hour: 'numeric', minute: '2-digit' })).not.toBe(first);
  });
});

describe('prewarmDateFormats', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('builds each formatter in a task of its own after the current one, then the page gets it built', () => {
    vi.useFakeTimers();
    const built = vi.spyOn(Intl, 'DateTimeFormat');
    prewarmDateFormats('de', [{ weekday: 'short' }, { month: 'long', year: 'numeric' }]);
    expect(built).not.toHaveBeenCalled();
    expect(vi.getTimerCount()).toBe(2);
    vi.runAllTimers();
    expect(built).toHaveBeenCalledTimes(2);
    dateTimeFormat('de', { year: 'numeric', month: 'long' });
    dateTimeFormat('de', { weekday: 'short' });
    expect(built).toHaveBeenCalledTimes(2);
  });
});
