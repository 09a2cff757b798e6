// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HideOnScroll, hiddenAfterScroll } from './HideOnScroll';

describe('HideOnScroll', () => {
  afterEach(() => vi.restoreAllMocks());

  it('hides past 100 px while going down, shows again going up', () => {
    expect(hiddenAfterScroll(0, 50)).toBe(false);
    expect(hiddenAfterScroll(50, 150)).toBe(true);
    expect(hiddenAfterScroll(150, 150)).toBe(true);
    expect(hiddenAfterScroll(150, 120)).toBe(false);
  });

  it('does not read the scroll position when it mounts (that forced a layout of the whole console), only on scroll', () => {
    const scrollY = vi.spyOn(window, 'scrollY', 'get').mockReturnValue(0);
    // MUI's useScrollTrigger reads this one (the same position).
    const pageYOffset = vi.spyOn(window, 'pageYOffset', 'get').mockReturnValue(0);
    render(
      <HideOnScroll>
        <header>Bar</header>
      </HideOnScroll>,
    );
    expect(screen.getByText('Bar')).toBeTruthy();
    expect(scrollY).not.toHaveBeenCalled();
    expect(pageYOffset).not.toHaveBeenCalled();
    scrollY.mockReturnValue(300);
    act(() => void window.dispatchEvent(new Event('scroll')));
    expect(scrollY).toHaveBeenCalled();
    // Slid out of view: MUI's Slide moves it up and hides it once the transition ends.
    expect(screen.getByText('Bar').style.transform).toMatch(/translateY/);
  });
});
