// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderPluginPage } from '../testing/renderPluginPage';
import { EmptyView } from './EmptyView';
import { TABLE_PAGE_SIZES } from './ConsolePagination';
import { InlineFacts } from './InlineFacts';

describe('EmptyView', () => {
  beforeEach(() => localStorage.clear());

  it("shows the spec's empty-data text", () => {
    renderPluginPage(<EmptyView />, { adminContext: false, route: false });
    expect(screen.getByText('Nothing Found.')).toBeInTheDocument();
    expect(screen.getByText("There's no data at the moment, please check back in later.")).toBeInTheDocument();
  });
});

describe('TABLE_PAGE_SIZES', () => {
  it('offers 10, 25, 50, 100 and all', () => {
    expect(TABLE_PAGE_SIZES).toEqual([10, 25, 50, 100, -1]);
  });
});

describe('InlineFacts', () => {
  it('says each fact with its label, one line, and leaves out a fact without a value', () => {
    renderPluginPage(
      <InlineFacts facts={[{ label: 'Steps', value: 0 }, { label: 'Invited by', value: null }, { label: 'Language', value: '' }, { label: 'Updated', value: 'Dec 3' }]} />,
      { adminContext: false, route: false },
    );
    expect(screen.getByText(/Steps/).closest('p')?.textContent).toBe('Steps 0 · Updated Dec 3');
  });
});
