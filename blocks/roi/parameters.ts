// Turns content/roi.yaml (already checked against schema/roi.schema.json) into the engine's parameters.
import type { Industry, ManualHours } from '../forms/schemas.ts';
import { DEFAULT_ROI_PARAMETERS, type RoiParameters } from './engine.ts';

// The YAML names each manual-hours answer with a plain word: the generated content types cannot
// carry keys such as '<5'. This table maps them back to the form's option values.
export const MANUAL_HOURS_CONTENT_KEYS = {
  lessThan5: '<5',
  from5To10: '5-10',
  from10To20: '10-20',
  moreThan20: '20+',
} as const satisfies Record<string, ManualHours>;
type ManualHoursContentKey = keyof typeof MANUAL_HOURS_CONTENT_KEYS;

/** The shape of content/roi.yaml (schema/roi.schema.json); every number may be left out. */
export interface RoiParametersContent {
  investmentUsd?: number;
  weeksPerYear?: number;
  workHoursPerWeek?: number;
  defaultAverageSalaryUsd?: number;
  defaultTeamSize?: number;
  upliftRateByIndustry?: Partial<Record<Industry, number>>;
  weeklyHoursSavedByManualHours?: Partial<Record<ManualHoursContentKey, number>>;
  fallbackWeeklyHoursSaved?: number;
}

function mapManualHoursKeys(
  hoursByContentKey: Partial<Record<ManualHoursContentKey, number>>,
): Partial<Record<ManualHours, number>> {
  const hoursByAnswer: Partial<Record<ManualHours, number>> = {};
  for (const [contentKey, answer] of Object.entries(MANUAL_HOURS_CONTENT_KEYS)) {
    const hours = hoursByContentKey[contentKey as ManualHoursContentKey];
    if (hours !== undefined) hoursByAnswer[answer] = hours;
  }
  return hoursByAnswer;
}

/** Validated roi.yaml data → frozen engine parameters; anything left out keeps the spec's number. */
export function buildRoiParameters(
  content: RoiParametersContent = {},
  defaults: RoiParameters = DEFAULT_ROI_PARAMETERS,
): RoiParameters {
  return Object.freeze({
    investmentUsd: content.investmentUsd ?? defaults.investmentUsd,
    weeksPerYear: content.weeksPerYear ?? defaults.weeksPerYear,
    workHoursPerWeek: content.workHoursPerWeek ?? defaults.workHoursPerWeek,
    defaultAverageSalaryUsd: content.defaultAverageSalaryUsd ?? defaults.defaultAverageSalaryUsd,
    defaultTeamSize: content.defaultTeamSize ?? defaults.defaultTeamSize,
    upliftRateByIndustry: Object.freeze({ ...defaults.upliftRateByIndustry, ...content.upliftRateByIndustry }),
    weeklyHoursSavedByManualHours: Object.freeze({
      ...defaults.weeklyHoursSavedByManualHours,
      ...mapManualHoursKeys(content.weeklyHoursSavedByManualHours ?? {}),
    }),
    fallbackWeeklyHoursSaved: content.fallbackWeeklyHoursSaved ?? defaults.fallbackWeeklyHoursSaved,
  });
}
