// Turns content/roi.yaml (already checked against schema/roi.schema.json) into the engine's
// parameters, and checks those parameters when they are read back from the build.
import { INDUSTRY_OPTIONS, listValues, MANUAL_HOURS_OPTIONS } from '../rules.ts';
import type { Industry, ManualHours } from '../rules.ts';
import type { RoiParameters } from './engine.ts';

// The YAML names each manual-hours answer with a plain word: the generated content types cannot
// carry keys such as '<5'. This table maps them back to the form's option values.
export const MANUAL_HOURS_CONTENT_KEYS = {
  lessThan5: '<5',
  from5To10: '5-10',
  from10To20: '10-20',
  moreThan20: '20+',
} as const satisfies Record<string, ManualHours>;
type ManualHoursContentKey = keyof typeof MANUAL_HOURS_CONTENT_KEYS;

/** The shape of content/roi.yaml (schema/roi.schema.json): every number present. */
export interface RoiParametersContent {
  readonly investmentUsd: number;
  readonly weeksPerYear: number;
  readonly workHoursPerWeek: number;
  readonly defaultAverageSalaryUsd: number;
  readonly defaultTeamSize: number;
  readonly upliftRateByIndustry: Readonly<Record<Industry, number>>;
  readonly weeklyHoursSavedByManualHours: Readonly<Record<ManualHoursContentKey, number>>;
  readonly fallbackWeeklyHoursSaved: number;
}

/** Checked roi.yaml data → frozen engine parameters (its plain-word hour keys mapped to the form's answers). */
export function buildRoiParameters(content: RoiParametersContent): RoiParameters {
  const hoursByAnswer = Object.fromEntries(
    Object.entries(MANUAL_HOURS_CONTENT_KEYS).map(([contentKey, answer]) => [
      answer,
      content.weeklyHoursSavedByManualHours[contentKey as ManualHoursContentKey],
    ]),
  ) as Record<ManualHours, number>;
  return Object.freeze({
    investmentUsd: content.investmentUsd,
    weeksPerYear: content.weeksPerYear,
    workHoursPerWeek: content.workHoursPerWeek,
    defaultAverageSalaryUsd: content.defaultAverageSalaryUsd,
    defaultTeamSize: content.defaultTeamSize,
    upliftRateByIndustry: Object.freeze({ ...content.upliftRateByIndustry }),
    weeklyHoursSavedByManualHours: Object.freeze(hoursByAnswer),
    fallbackWeeklyHoursSaved: content.fallbackWeeklyHoursSaved,
  });
}

// ---------------------------------------------------------------------------------------------
// The engine's parameters as the build writes them (dist/roi-parameters.json) and the relay reads
// them back: every number present, finite and in range. Plain checks, no validation library, so the
// ROI block can import this module without shipping one.

const POSITIVE = (value: number) => value > 0;
const SHARE = (value: number) => value >= 0 && value <= 1;
const HOURS = (value: number) => value >= 0 && value <= 168;

const NUMBER_RULES: ReadonlyArray<readonly [keyof RoiParameters, (value: number) => boolean, string]> = [
  ['investmentUsd', POSITIVE, 'a positive amount'],
  ['weeksPerYear', POSITIVE, 'a positive number'],
  ['workHoursPerWeek', POSITIVE, 'a positive number'],
  ['defaultAverageSalaryUsd', POSITIVE, 'a positive amount'],
  ['defaultTeamSize', POSITIVE, 'a positive number'],
  ['fallbackWeeklyHoursSaved', HOURS, 'hours between 0 and 168'],
];

/** Every problem with a parsed roi-parameters.json, in words; [] when it is usable. */
export function checkRoiParameters(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['it must hold an object of ROI parameters'];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  const checkNumber = (where: string, raw: unknown, isValid: (n: number) => boolean, expected: string) => {
    if (typeof raw !== 'number' || !Number.isFinite(raw) || !isValid(raw))
      problems.push(`${where} must be ${expected}, got ${JSON.stringify(raw) ?? 'nothing'}`);
  };
  for (const [key, isValid, expected] of NUMBER_RULES) checkNumber(key, record[key], isValid, expected);
  const checkTable = (
    key: 'upliftRateByIndustry' | 'weeklyHoursSavedByManualHours',
    keys: readonly string[],
    isValid: (n: number) => boolean,
    expected: string,
  ) => {
    const table = record[key];
    if (typeof table !== 'object' || table === null) {
      problems.push(`${key} must be a table of ${keys.join(', ')}`);
      return;
    }
    for (const entry of keys) checkNumber(`${key}.${entry}`, (table as Record<string, unknown>)[entry], isValid, expected);
  };
  checkTable('upliftRateByIndustry', listValues(INDUSTRY_OPTIONS), SHARE, 'a share between 0 and 1');
  checkTable('weeklyHoursSavedByManualHours', listValues(MANUAL_HOURS_OPTIONS), HOURS, 'hours between 0 and 168');
  return problems;
}
