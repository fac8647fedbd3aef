// Tests that need the site's real numbers read them from the shipped content, the one place they
// are kept, rather than from a copy that could drift.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import type { RoiParameters } from '../../lead/roi/engine.ts';
import { buildRoiParameters } from '../../lead/roi/parameters.ts';
import type { RoiParametersContent } from '../../lead/roi/parameters.ts';

const ROI_CONTENT_FILE = new URL('../../content/roi.yaml', import.meta.url);

/** The ROI numbers of content/roi.yaml, as the build writes them for the relay. */
export function shippedRoiParameters(): RoiParameters {
  return buildRoiParameters(parse(readFileSync(ROI_CONTENT_FILE, 'utf8')) as RoiParametersContent);
}

export const SHIPPED_ROI_PARAMETERS: RoiParameters = shippedRoiParameters();
