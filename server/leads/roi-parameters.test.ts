import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROI_PARAMETERS_FILE, SiteBuildError } from '../../content-model/load/build-files.ts';
import { shippedRoiParameters } from '../../content-model/testing/shipped-content.ts';
import { loadRoiParameters } from './roi-parameters.ts';

let distDir: string;

beforeEach(async () => {
  distDir = await mkdtemp(path.join(tmpdir(), 'roi-parameters-'));
});
afterEach(async () => {
  await rm(distDir, { recursive: true, force: true });
});

const writeParameters = (value: unknown) =>
  writeFile(path.join(distDir, ROI_PARAMETERS_FILE), typeof value === 'string' ? value : JSON.stringify(value));

describe('the relay reads the ROI numbers the build wrote', () => {
  it('reads a build’s numbers as they are', async () => {
    const parameters = { ...shippedRoiParameters(), investmentUsd: 75_000 };
    await writeParameters(parameters);
    expect(await loadRoiParameters(distDir)).toEqual(parameters);
  });

  it('stops with a plain message when the build has none', async () => {
    await writeFile(path.join(distDir, 'routes.json'), '{}');
    const failure = loadRoiParameters(distDir);
    await expect(failure).rejects.toBeInstanceOf(SiteBuildError);
    await expect(failure).rejects.toThrow(
      `The build has no ROI parameters (${path.join(distDir, ROI_PARAMETERS_FILE)} is missing): run \`npm run build\` again`,
    );
  });

  it.each([
    ['not JSON', '{ investmentUsd: ', /is not valid JSON: run `npm run build` again/],
    ['a missing number', { ...shippedRoiParameters(), investmentUsd: undefined }, /investmentUsd must be a positive amount, got nothing/],
    [
      'a rate above 1',
      { ...shippedRoiParameters(), upliftRateByIndustry: { ...shippedRoiParameters().upliftRateByIndustry, retail: 3 } },
      /upliftRateByIndustry\.retail must be a share between 0 and 1, got 3/,
    ],
    [
      'a missing hours answer',
      { ...shippedRoiParameters(), weeklyHoursSavedByManualHours: { '<5': 2.5 } },
      /weeklyHoursSavedByManualHours\.5-10 must be hours between 0 and 168, got nothing/,
    ],
    ['a list instead of parameters', [], /it must hold an object of ROI parameters/],
  ])('stops with a plain message for %s', async (_case, value, message) => {
    await writeParameters(value);
    await expect(loadRoiParameters(distDir)).rejects.toThrow(message);
  });
});
