import { describe, expect, it } from 'vitest';
import { findLeadForm, LEAD_FORMS } from './forms.ts';
import { LEAD_FORM_IDS, LEAD_SOURCES } from './rules.ts';

describe('form lookup by source label', () => {
  it.each([
    ['Homepage Simple Lead Form', 'home'],
    ['AI ROI Calculator + Lead Form', 'roi'],
    ['Contact Page Form', 'contact'],
    ['AI Transformation Landing Page', 'landing'],
  ])('finds %j as the %s form', (source, formId) => {
    expect(findLeadForm(source)?.form).toBe(formId);
  });

  it.each([['Unknown Form'], ['toString'], [undefined], [42]])('finds nothing for %j', (source) => {
    expect(findLeadForm(source)).toBeUndefined();
  });

  it('pairs every form with its own source', () => {
    for (const formId of LEAD_FORM_IDS) {
      expect(LEAD_FORMS[formId].form).toBe(formId);
      expect(LEAD_FORMS[formId].source).toBe(LEAD_SOURCES[formId]);
      expect(findLeadForm(LEAD_SOURCES[formId])).toBe(LEAD_FORMS[formId]);
    }
  });
});
