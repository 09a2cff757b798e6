// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { FullWidthTabs, focusTarget } from './FullWidthTabs';

const TABS = [
  { value: 'mine', label: 'Mine (2)', testId: 'tab-mine' },
  { value: 'unassigned', label: 'Unassigned', testId: 'tab-unassigned' },
  { value: 'all', label: 'All (9)', testId: 'tab-all' },
] as const;

function renderTabs(value: (typeof TABS)[number]['value'] = 'mine') {
  const onChange = vi.fn();
  render(<FullWidthTabs value={value} onChange={onChange} tabs={TABS} aria-label="Conversations" />);
  return { onChange, tab: (name: string) => screen.getByRole('tab', { name }) };
}

describe('FullWidthTabs', () => {
  it('is a labelled tablist whose selected tab alone is selected and in the Tab order', () => {
    const { tab } = renderTabs('unassigned');
    expect(screen.getByRole('tablist', { name: 'Conversations' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected'), t.tabIndex])).toEqual([
      ['Mine (2)', 'false', -1],
      ['Unassigned', 'true', 0],
      ['All (9)', 'false', -1],
    ]);
    expect(tab('All (9)')).toHaveAttribute('data-testid', 'tab-all');
  });

  it('selects a tab clicked, and says nothing for the one already selected', () => {
    const { onChange, tab } = renderTabs('mine');
    fireEvent.click(tab('Mine (2)'));
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.click(tab('All (9)'));
    expect(onChange).toHaveBeenCalledWith('all');
  });

  it('moves the focus with the arrows, Home and End, wrapping around, without selecting', () => {
    const { onChange, tab } = renderTabs('mine');
    tab('Mine (2)').focus();
    fireEvent.keyDown(tab('Mine (2)'), { key: 'ArrowRight' });
    expect(tab('Unassigned')).toHaveFocus();
    fireEvent.keyDown(tab('Unassigned'), { key: 'End' });
    expect(tab('All (9)')).toHaveFocus();
    fireEvent.keyDown(tab('All (9)'), { key: 'ArrowRight' });
    expect(tab('Mine (2)')).toHaveFocus();
    fireEvent.keyDown(tab('Mine (2)'), { key: 'ArrowLeft' });
    expect(tab('All (9)')).toHaveFocus();
    fireEvent.keyDown(tab('All (9)'), { key: 'Home' });
    expect(tab('Mine (2)')).toHaveFocus();
    fireEvent.keyDown(tab('Mine (2)'), { key: 'ArrowRight', ctrlKey: true });
    expect(tab('Mine (2)')).toHaveFocus();
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('focusTarget', () => {
  it('answers the index to focus, or null for other keys', () => {
    expect(focusTarget('ArrowRight', 2, 3)).toBe(0);
    expect(focusTarget('ArrowLeft', 0, 3)).toBe(2);
    expect(focusTarget('Home', 1, 3)).toBe(0);
    expect(focusTarget('End', 0, 3)).toBe(2);
    expect(focusTarget('Enter', 0, 3)).toBeNull();
  });
});
