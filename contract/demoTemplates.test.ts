import { describe, expect, it } from 'vitest';
import { TemplateDefinition, templateErrors } from './templates';
import { DEMO_TEMPLATES } from './demoTemplates';

describe('the demo templates', () => {
  it('are valid for Meta, one of each kind with a carousel among them', () => {
    for (const definition of DEMO_TEMPLATES) expect(templateErrors(TemplateDefinition.safeParse(definition))).toEqual({});
    expect(new Set(DEMO_TEMPLATES.map((d) => d.category))).toEqual(new Set(['MARKETING', 'UTILITY', 'AUTHENTICATION']));
    expect(DEMO_TEMPLATES.some((d) => d.components.some((c) => c.type === 'CAROUSEL'))).toBe(true);
    expect(DEMO_TEMPLATES.some((d) => d.components.some((c) => c.type === 'HEADER' && c.format === 'IMAGE'))).toBe(true);
  });
});
