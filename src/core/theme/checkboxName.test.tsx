// @vitest-environment jsdom
import { Checkbox } from '@mui/material';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { darkTheme, lightTheme } from './theme';

describe.each([
  ['light', lightTheme],
  ['dark', darkTheme],
])('a checkbox in the %s theme', (_, theme) => {
  const inTheme = (element: React.ReactElement) => render(<ThemeProvider theme={createTheme(theme)}>{element}</ThemeProvider>);

  it('given aria-label (as react-admin’s row checkbox is), names its input, not its role-less span', () => {
    const { container } = inTheme(<Checkbox aria-label="Select this row" />);
    expect(screen.getByRole('checkbox', { name: 'Select this row' })).toBeInTheDocument();
    expect(container.querySelector('span[aria-label]')).toBeNull();
  });

  it('named through inputProps or slotProps, keeps that name', () => {
    inTheme(
      <>
        <Checkbox inputProps={{ 'aria-label': 'Select all' }} />
        <Checkbox slotProps={{ input: { 'aria-label': 'Accept the terms' } }} />
        <Checkbox indeterminate inputProps={{ 'aria-label': 'Some selected' }} />
        <Checkbox slotProps={{ root: { title: 'root' } as never }} inputProps={{ 'aria-label': 'Root set too' }} />
        <Checkbox />
      </>,
    );
    expect(screen.getByRole('checkbox', { name: 'Root set too' })).toBeInTheDocument();
    expect(screen.getAllByRole('checkbox')).toHaveLength(5);
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Accept the terms' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Some selected' })).toHaveAttribute('data-indeterminate', 'true');
  });
});
