import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallbackConsentWording } from '../../lead/callback-consent.ts';
import { CALLBACK_CONSENT_FILE, SiteBuildError } from '../../content-model/load/build-files.ts';

// The "call me back now" wording the relay stores with a lead is the one its build's pages show: the
// build writes it beside the route table (CALLBACK_CONSENT_FILE), and the relay reads it at start and
// again when DIST_DIR holds a new build. A browser names only the version it showed; the text comes
// from here. Every wording this process has loaded stays known, so a visitor who opened the page
// before a publish that changed the wording still has their agreement recorded in the words they read.

/** The wording of the build in `distDir`; undefined when the build shows no tick box (or predates it). */
export async function loadCallbackWording(distDir: string): Promise<CallbackConsentWording | undefined> {
  const file = path.resolve(distDir, CALLBACK_CONSENT_FILE);
  const shown = path.join(distDir, CALLBACK_CONSENT_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SiteBuildError(`${shown} is not valid JSON: run \`npm run build\` again`);
  }
  const wording = (parsed as { wording?: unknown } | null)?.wording;
  if (wording === null) return undefined;
  if (!isWording(wording)) throw new SiteBuildError(`${shown} has no usable wording: run \`npm run build\` again`);
  return Object.freeze({ version: wording.version, text: wording.text });
}

function isWording(value: unknown): value is CallbackConsentWording {
  if (typeof value !== 'object' || value === null) return false;
  const { version, text } = value as Record<string, unknown>;
  return typeof version === 'string' && version !== '' && typeof text === 'string' && text !== '';
}

/** The wordings known to this process, by version; a version loaded again with other words takes the newer words. */
export class CallbackWordingBook {
  readonly #byVersion = new Map<string, string>();

  get wordings(): ReadonlyMap<string, string> {
    return this.#byVersion;
  }

  remember(wording: CallbackConsentWording | undefined): void {
    if (wording !== undefined) this.#byVersion.set(wording.version, wording.text);
  }
}
