import type { Locator } from '@playwright/test';

/** WCAG relative luminance of an `rgb()`/`rgba()` colour. */
function luminance([r, g, b]: number[]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function parse(color: string): number[] {
  return (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(parse(a)), luminance(parse(b))].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/**
 * The focus ring of an element as the browser draws it (outline style, width and colour) and the
 * colour it is drawn against: the first opaque background of the element's ancestors.
 */
export async function focusRingOf(element: Locator): Promise<{ style: string; width: number; color: string; background: string }> {
  return element.evaluate((el) => {
    const own = getComputedStyle(el);
    let node: Element | null = el.parentElement;
    let background = 'rgb(255, 255, 255)';
    while (node) {
      const bg = getComputedStyle(node).backgroundColor;
      const alpha = bg.startsWith('rgba') ? Number(bg.split(',')[3]?.replace(')', '')) : 1;
      if (bg && bg !== 'transparent' && alpha > 0.5) {
        background = bg;
        break;
      }
      node = node.parentElement;
    }
    return { style: own.outlineStyle, width: parseFloat(own.outlineWidth), color: own.outlineColor, background };
  });
}
