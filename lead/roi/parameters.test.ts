import { readFileSync } from 'node:fs';
import { SHIPPED_ROI_PARAMETERS } from '../../content-model/testing/shipped-content.ts';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { MANUAL_HOURS_OPTIONS } from '../rules.ts';
import { MANUAL_HOURS_CONTENT_KEYS, buildRoiParameters, checkRoiParameters, type RoiParametersContent } from './parameters.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const roiSchema = JSON.parse(readFileSync(path.join(ROOT, 'schema/roi.schema.json'), 'utf8')) as {
  properties: Record<string, { properties?: Record<string, unknown> }>;
  examples: unknown[];
};
const roiContent = parseYaml(readFileSync(path.join(ROOT, 'content/roi.yaml'), 'utf8')) as RoiParametersContent;

// The same settings the content build uses.
const validateRoiContent = new Ajv({ allErrors: true, strict: true }).compile(roiSchema);

describe('content/roi.yaml against schema/roi.schema.json', () => {
  it('is valid', () => {
    expect(validateRoiContent(roiContent), JSON.stringify(validateRoiContent.errors)).toBe(true);
  });

  const { investmentUsd: _, ...withoutInvestment } = roiContent;
  const { retail: __, ...ratesWithoutRetail } = roiContent.upliftRateByIndustry;
  it.each([
    ['an unknown property', { ...roiContent, investmentUSD: 50000 }],
    ['a missing number (the file is their only source)', withoutInvestment],
    ['a missing industry rate', { ...roiContent, upliftRateByIndustry: ratesWithoutRetail }],
    ['an unknown industry', { ...roiContent, upliftRateByIndustry: { ...roiContent.upliftRateByIndustry, aerospace: 0.2 } }],
    ['a negative rate', { ...roiContent, upliftRateByIndustry: { ...roiContent.upliftRateByIndustry, retail: -0.1 } }],
    ['a rate written as a percentage', { ...roiContent, upliftRateByIndustry: { ...roiContent.upliftRateByIndustry, retail: 10 } }],
    ['a zero investment', { ...roiContent, investmentUsd: 0 }],
    ['a team of zero', { ...roiContent, defaultTeamSize: 0 }],
    ['text instead of a number', { ...roiContent, weeksPerYear: 'fifty-two' }],
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
    expect(Object.keys(roiSchema.properties).sort()).toEqual(Object.keys(SHIPPED_ROI_PARAMETERS).sort());
  });

  it('names a content key for every manual-hours answer', () => {
    expect(Object.keys(roiSchema.properties.weeklyHoursSavedByManualHours?.properties ?? {})).toEqual(
      Object.keys(MANUAL_HOURS_CONTENT_KEYS),
    );
    expect(Object.values(MANUAL_HOURS_CONTENT_KEYS)).toEqual(MANUAL_HOURS_OPTIONS.map((o) => o.value));
  });

  it('takes every number from the file, the hour keys mapped to the form’s answers', () => {
    const parameters = buildRoiParameters({
      ...roiContent,
      investmentUsd: 75_000,
      weeklyHoursSavedByManualHours: { ...roiContent.weeklyHoursSavedByManualHours, lessThan5: 3 },
    });
    expect(parameters.investmentUsd).toBe(75_000);
    expect(parameters.weeklyHoursSavedByManualHours).toEqual({ ...SHIPPED_ROI_PARAMETERS.weeklyHoursSavedByManualHours, '<5': 3 });
  });

  it('passes its own check, so the relay will accept what the build writes', () => {
    expect(checkRoiParameters(buildRoiParameters(roiContent))).toEqual([]);
  });

  it('returns frozen parameters', () => {
    const parameters = buildRoiParameters(roiContent);
    expect(Object.isFrozen(parameters)).toBe(true);
    expect(Object.isFrozen(parameters.upliftRateByIndustry)).toBe(true);
    expect(Object.isFrozen(parameters.weeklyHoursSavedByManualHours)).toBe(true);
  });
});
