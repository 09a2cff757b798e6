import { describe, expect, it, vi } from 'vitest';
import { createTimeZoneSource } from './timeZone';
import { memoryStorage } from '../testing/memoryStorage';

describe('createTimeZoneSource', () => {
  it('reads the browser zone on the very first load, once, and remembers it', () => {
    const storage = memoryStorage();
    const read = vi.fn(() => 'Europe/Paris');
    const later = vi.fn();
    const source = createTimeZoneSource({ storage, read, later });
    expect(source.get()).toBe('Europe/Paris');
    expect(source.get()).toBe('Europe/Paris');
    expect(read).toHaveBeenCalledTimes(1);
    expect(later).not.toHaveBeenCalled();
    expect(storage.getItem('console.timeZone')).toBe('Europe/Paris');
  });

  it('answers with the remembered zone at once and checks the browser later, telling the listeners of a change', () => {
    const storage = memoryStorage({ 'console.timeZone': 'Europe/Paris' });
    const read = vi.fn(() => 'Asia/Tokyo');
    let check: () => void = () => {};
    const source = createTimeZoneSource({ storage, read, later: (fn) => (check = fn) });
    const listener = vi.fn();
    source.subscribe(listener);
    expect(source.get()).toBe('Europe/Paris');
    expect(read).not.toHaveBeenCalled();
    check();
    expect(source.get()).toBe('Asia/Tokyo');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(storage.getItem('console.timeZone')).toBe('Asia/Tokyo');
  });

  it('tells no one when the remembered zone is still the browser zone', () => {
    let check: () => void = () => {};
    const source = createTimeZoneSource({ storage: memoryStorage({ 'console.timeZone': 'UTC' }), read: () => 'UTC', later: (fn) => (check = fn) });
    const listener = vi.fn();
    source.subscribe(listener);
    expect(source.get()).toBe('UTC');
    check();
    expect(listener).not.toHaveBeenCalled();
  });

  it('works without storage (each load reads the browser zone)', () => {
    const source = createTimeZoneSource({ storage: null, read: () => 'America/New_York', later: vi.fn() });
    expect(source.get()).toBe('America/New_York');
  });
});
