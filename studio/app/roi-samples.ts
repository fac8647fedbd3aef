// Typical visitors of the ROI calculator: the studio works out what the calculator would tell each of
// them while someone edits the ROI numbers.
import type { RoiInputs } from '../../lead/roi/engine.ts';

export const SAMPLE_VISITORS: readonly { who: string; inputs: RoiInputs }[] = [
  {
    who: 'A 10-person technology company, $2M revenue, $60K average salary, 10-20 manual hours a week',
    inputs: { currentRevenue: 2_000_000, industry: 'technology', teamSize: 10, averageSalary: 60_000, manualHours: '10-20' },
  },
  {
    who: 'A 5-person healthcare practice, $800K revenue, $45K average salary, 5-10 manual hours a week',
    inputs: { currentRevenue: 800_000, industry: 'healthcare', teamSize: 5, averageSalary: 45_000, manualHours: '5-10' },
  },
  {
    who: 'A 25-person retailer, $5M revenue, $40K average salary, 20+ manual hours a week',
    inputs: { currentRevenue: 5_000_000, industry: 'retail', teamSize: 25, averageSalary: 40_000, manualHours: '20+' },
  },
];
