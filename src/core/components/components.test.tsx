// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderPluginPage } from '../testing/renderPluginPage';
import { EmptyView } from './EmptyView';
import { TABLE_PAGE_SIZES } from './ConsolePagination';

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
