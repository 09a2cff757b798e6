import { describe, expect, it } from 'vitest';
import { memoryStore } from 'react-admin';
import { withShownLocale } from './shownLocaleStore';

describe('withShownLocale', () => {
  it('answers the shown language for a locale never chosen, a stored choice otherwise, and leaves other keys alone', () => {
    const base = memoryStore();
    base.setup();
    let shown = 'en';
    const store = withShownLocale(base, () => shown);
    expect(store.getItem('locale')).toBe('en');
    shown = 'fr';
    expect(store.getItem('locale')).toBe('fr');
    // Nothing was written by reading.
    expect(base.getItem('locale')).toBeUndefined();
    store.setItem('locale', 'en');
    expect(store.getItem('locale')).toBe('en');
    expect(store.getItem('theme')).toBeUndefined();
    expect(store.getItem('theme', 'light')).toBe('light');
  });
});
