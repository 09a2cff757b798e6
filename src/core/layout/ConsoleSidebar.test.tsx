// @vitest-environment jsdom
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderPluginPage } from '../testing/renderPluginPage';
import { ConsoleSidebar } from './ConsoleSidebar';

describe('ConsoleSidebar', () => {
  afterEach(() => vi.restoreAllMocks());

  it('holds the menu beside the page, without reading the scroll position when it mounts (that forced a layout)', () => {
    const scrollY = vi.spyOn(window, 'scrollY', 'get').mockReturnValue(0);
    // MUI's useScrollTrigger, which react-admin's Sidebar calls, reads this one.
    const pageYOffset = vi.spyOn(window, 'pageYOffset', 'get').mockReturnValue(0);
    renderPluginPage(
      <ConsoleSidebar>
        <nav>Menu</nav>
      </ConsoleSidebar>,
      { route: false },
    );
    expect(screen.getByText('Menu')).toBeVisible();
    expect(document.querySelector('.MuiDrawer-docked')).not.toBeNull();
    expect(scrollY).not.toHaveBeenCalled();
    expect(pageYOffset).not.toHaveBeenCalled();
    scrollY.mockReturnValue(300);
    act(() => void window.dispatchEvent(new Event('scroll')));
    expect(scrollY).toHaveBeenCalled();
  });
});
