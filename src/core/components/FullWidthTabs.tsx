import type { KeyboardEvent, ReactNode } from 'react';
import { Box, ButtonBase } from '@mui/material';

export interface FullWidthTab<T extends string> {
  value: T;
  label: ReactNode;
  testId?: string;
}

/** The tab that takes the focus for `key` from the focused one (index `from` of `count`), or null for another key. */
export function focusTarget(key: string, from: number, count: number): number | null {
  switch (key) {
    case 'ArrowRight':
      return (from + 1) % count;
    case 'ArrowLeft':
      return (from - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * A compact row of tabs sharing the width (a list's views: the inbox's Mine, Unassigned, All), that never measures
 * the page.
 *
 * MUI's `Tabs` places its sliding indicator from the tabs' bounding boxes in a layout effect: that forces the
 * browser to lay out the whole page in the middle of React's commit, 27 ms of the inbox's load at 4× CPU
 * (bench/bundle README), and again each time a label changes (the inbox's live counts). Here the selected tab
 * draws its own underline. The roles and attributes are those of `Tabs` (a `tablist` of `tab`s, `aria-selected`,
 * only the selected tab in the Tab order) and so is the keyboard: the arrows, Home and End move the focus, Enter
 * or Space selects.
 */
export function FullWidthTabs<T extends string>({
  value,
  onChange,
  tabs,
  'aria-label': ariaLabel,
}: {
  value: T;
  onChange: (value: T) => void;
  tabs: readonly FullWidthTab<T>[];
  'aria-label': string;
}) {
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.altKey || event.shiftKey || event.ctrlKey || event.metaKey) return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]'));
    const from = items.indexOf(document.activeElement as HTMLElement);
    if (from < 0) return;
    const to = focusTarget(event.key, from, items.length);
    if (to === null) return;
    event.preventDefault();
    items[to].focus();
  };
  return (
    <Box role="tablist" aria-label={ariaLabel} onKeyDown={onKeyDown} sx={{ display: 'flex', minHeight: 36 }}>
      {tabs.map((tab) => {
        const selected = tab.value === value;
        return (
          <ButtonBase
            key={tab.value}
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => !selected && onChange(tab.value)}
            data-testid={tab.testId}
            sx={(theme) => ({
              ...theme.typography.button,
              flex: '1 1 0',
              minWidth: 0,
              minHeight: 36,
              px: 0.5,
              fontSize: 13,
              lineHeight: 1.25,
              color: selected ? theme.palette.primary.main : theme.palette.text.secondary,
              // MUI's indicator: 2 px of the primary colour under the selected tab, drawn inside it (no layout shift).
              boxShadow: selected ? `inset 0 -2px 0 ${theme.palette.primary.main}` : 'none',
            })}
          >
            {tab.label}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
