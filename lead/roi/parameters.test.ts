import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MANUAL_HOURS_OPTIONS } from '../validation.ts';
import { DEFAULT_ROI_PARAMETERS } from './engine.ts';
import { MANUAL_HOURS_CONTENT_KEYS, buildRoiParameters, type RoiParametersContent } from './parameters.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const roiSchema = JSON.parse(readFileSync(path.join(ROOT, 'schema/roi.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
  examples: unknown[];
};
const roiContent: unknown = parseYaml(readFileSync(path.join(ROOT, 'content/roi.yaml'), 'utf8'));

// The same settings the content build uses.
const validateRoiContent = new Ajv({ allErrors: true, strict: true }).compile(roiSchema);

describe('content/roi.yaml against schema/roi.schema.json', () => {
  it('is valid', () => {
    expect(validateRoiContent(roiContent), JSON.stringify(validateRoiContent.errors)).toBe(true);
  });

  it('holds exactly the spec numbers', () => {
    expect(buildRoiParameters(roiContent as RoiParametersContent)).toEqual(DEFAULT_ROI_PARAMETERS);
  });

  it.each([
    ['an unknown property', { investmentUSD: 50000 }],
    ['an unknown industry', { upliftRateByIndustry: { aerospace: 0.2 } }],
    ['a negative rate', { upliftRateByIndustry: { retail: -0.1 } }],
    ['a rate written as a percentage', { upliftRateByIndustry: { retail: 10 } }],
    ['a zero investment', { investmentUsd: 0 }],
    ['a team of zero', { defaultTeamSize: 0 }],
    ['text instead of a number', { weeksPerYear: 'fifty-two' }],
  ])('rejects %s', (_problem, content) => {
    expect(validateRoiContent(content)).toBe(false);
  });

  it('accepts its own example', () => {
    const [example] = roiSchema.examples;
    expect(validateRoiContent(example)).toBe(true);
  });
});

describe('buildRoiParameters', () => {
  it('maps every schema property onto a parameter of the same name', () => {
    expect(Object.keys(roiSchema.properties).sort()).toEqual(Object.keys(DEFAULT_ROI_PARAMETERS).sort());
  });

  it('names a content key for every manual-hours answer', () => {
    expect(Object.keys(roiSchema.properties.weeklyHoursSavedByManualHours?.properties ?? {})).toEqual(
      Object.keys(MANUAL_HOURS_CONTENT_KEYS),
    );
    expect(Object.values(MANUAL_HOURS_CONTENT_KEYS)).toEqual(MANUAL_HOURS_OPTIONS.map((o) => o.value));
  });

  it('uses the spec numbers for an empty file', () => {
    expect(buildRoiParameters({})).toEqual(DEFAULT_ROI_PARAMETERS);
  });

  it('keeps the spec number for anything left out', () => {
    const parameters = buildRoiParameters({
      investmentUsd: 75_000,
      upliftRateByIndustry: { retail: 0.2 },
      weeklyHoursSavedByManualHours: { lessThan5: 3 },
    });
    expect(parameters.investmentUsd).toBe(75_000);
    expect(parameters.weeksPerYear).toBe(52);
    expect(parameters.upliftRateByIndustry).toEqual({ ...DEFAULT_ROI_PARAMETERS.upliftRateByIndustry, retail: 0.2 });
    expect(parameters.weeklyHoursSavedByManualHours).toEqual({
      ...DEFAULT_ROI_PARAMETERS.weeklyHoursSavedByManualHours,
      '<5': 3,
    });
  });

  it('returns frozen parameters', () => {
    const parameters = buildRoiParameters({});
    expect(Object.isFrozen(parameters)).toBe(true);
    expect(Object.isFrozen(parameters.upliftRateByIndustry)).toBe(true);
    expect(Object.isFrozen(parameters.weeklyHoursSavedByManualHours)).toBe(true);
  });
});
