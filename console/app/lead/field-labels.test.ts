import { describe, expect, it } from 'vitest';
import { SHIPPED_ROI_PARAMETERS } from '../../../content-model/testing/shipped-content.ts';
import { buildRoiPayload } from '../../../lead/crm-payload.ts';
import { LEAD_SOURCES } from '../../../lead/rules.ts';
import { ATTRIBUTION_KEYS } from '../../../server/console/lead-view.ts';
import { fieldLabel } from './field-labels.ts';

describe('fieldLabel', () => {
  // What the ROI form sends beside what the visitor typed: the figures the page worked out for them.
  const roiLead = buildRoiPayload(
    {
      companySize: '11-50',
      currentRevenue: '2000000',
      industry: 'healthcare',
      teamSize: '10',
      averageSalary: '60000',
      manualHours: '10-20',
      name: 'Dana Whitfield',
      email: 'dana@whitfield-dental.example',
      phone: '(512) 555-0147',
      company: 'Whitfield Dental',
      challenge: '',
      best_time: '',
    },
    {
      now: new Date('2026-11-28T13:44:00.000Z'),
      pageUrl: 'https://example.com/calculator',
      userAgent: 'Mozilla/5.0',
      referrer: '',
      attribution: {},
    },
    SHIPPED_ROI_PARAMETERS,
  );
  const listed = Object.keys(roiLead).filter((key) => !ATTRIBUTION_KEYS.includes(key) && key !== 'source');

  it.each(listed)('names the ROI lead field %s in words, never by its code name', (key) => {
    expect(fieldLabel(LEAD_SOURCES.roi, key)).not.toBe(key);
  });

  it('names the ROI figures as the visitor saw them on the result', () => {
    expect(fieldLabel(LEAD_SOURCES.roi, 'roi_total_savings')).toBe('Their ROI result: Total Annual Savings (dollars a year)');
    expect(fieldLabel(LEAD_SOURCES.roi, 'roi_percentage')).toBe('Their ROI result: Return on Investment (%)');
  });
});
