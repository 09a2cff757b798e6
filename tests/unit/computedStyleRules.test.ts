// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { observableRule } from './computedStyleRules';

describe('the unit tests keep of each emotion rule what jsdom computes from', () => {
  it('keeps what hides an element and what a test reads, drops the rest, and drops a rule left empty', () => {
    expect(observableRule('.css-1{display:none;padding:8px;color:red;}')).toBe('.css-1{display:none;}');
    expect(observableRule('.css-2{visibility:hidden;opacity:0;pointer-events:none;text-transform:none;margin:0;}')).toBe(
      '.css-2{visibility:hidden;opacity:0;pointer-events:none;text-transform:none;}',
    );
    expect(observableRule('.css-3{padding:8px;font-size:14px;}')).toBe('');
  });

  it('keeps media rules and pseudo-elements by the same rule', () => {
    expect(observableRule('@media (max-width:599.95px){.css-4{display:none;gap:4px;}}')).toBe('@media (max-width:599.95px){.css-4{display:none;}}');
    expect(observableRule('@media (min-width:600px){.css-5{gap:4px;}}')).toBe('');
    expect(observableRule('.css-6::after{content:"";width:1px;}')).toBe('.css-6::after{content:"";}');
  });

  it('is what the setup installs: an MUI component hidden by its class is still hidden to jsdom', async () => {
    const [{ render, screen }, { createElement }, { Box }] = await Promise.all([import('@testing-library/react'), import('react'), import('@mui/material')]);
    render(createElement(Box, { sx: { display: 'none', padding: 2 } }, 'Hidden by its class'));
    const hidden = screen.getByText('Hidden by its class');
    expect(getComputedStyle(hidden).display).toBe('none');
    expect(getComputedStyle(hidden).padding).toBe('');
    expect(hidden).not.toBeVisible();
  });
});
