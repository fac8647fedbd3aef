import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { buildRoiParameters } from '../../blocks/roi/parameters.ts';
import type { RoiParametersContent } from '../../blocks/roi/parameters.ts';
import type { RoiParameters } from '../../blocks/roi/engine.ts';

// The relay recomputes ROI figures with the numbers the site uses: content/roi.yaml (checked against
// schema/roi.schema.json by the build and CI), read once at start.

export const ROI_CONTENT_FILE = fileURLToPath(new URL('../../content/roi.yaml', import.meta.url));

export async function loadRoiParameters(file: string = ROI_CONTENT_FILE): Promise<RoiParameters> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the ROI parameters ${file}: ${(error as Error).message}`);
  }
  const content: unknown = parse(text);
  if (content !== null && (typeof content !== 'object' || Array.isArray(content))) {
    throw new Error(`${file} must hold the ROI parameters as a mapping (see schema/roi.schema.json)`);
  }
  return buildRoiParameters((content ?? {}) as RoiParametersContent);
}
