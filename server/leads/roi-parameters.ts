import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkRoiParameters } from '../../lead/roi/parameters.ts';
import type { RoiParameters } from '../../lead/roi/engine.ts';
import { ROI_PARAMETERS_FILE, ROUTES_FILE, SiteBuildError } from '../../content-model/load/build-files.ts';

// The relay recomputes each lead's ROI figures with the numbers the visitor's page was built with:
// the build checks content/roi.yaml and writes the result beside the route table (ROI_PARAMETERS_FILE), and the
// relay reads that file at start and again when DIST_DIR holds a new build. Editing roi.yaml changes nothing until the next build, for
// the page and the relay alike; a deployment that ships only dist/ has everything it needs.

export async function loadRoiParameters(distDir: string): Promise<RoiParameters> {
  const file = path.resolve(distDir, ROI_PARAMETERS_FILE);
  const shown = path.join(distDir, ROI_PARAMETERS_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (!existsSync(path.resolve(distDir, ROUTES_FILE)))
        throw new SiteBuildError(`No build found in ${distDir.replace(/[\\/]+$/, '')}/: run \`npm run build\` first`);
      throw new SiteBuildError(`The build has no ROI parameters (${shown} is missing): run \`npm run build\` again`);
    }
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SiteBuildError(`${shown} is not valid JSON: run \`npm run build\` again`);
  }
  const problems = checkRoiParameters(parsed);
  if (problems.length > 0) throw new SiteBuildError(`${shown} cannot be used: ${problems.join('; ')}. Run \`npm run build\` again`);
  return Object.freeze(parsed as RoiParameters);
}
