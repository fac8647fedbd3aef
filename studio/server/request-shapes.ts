// The parts of a request several routes share, as zod schemas: a content file's path, the revision
// and disk version a tab has seen, and the data of a page or an article. Routes build their body and
// query schemas from them, and plugins/request-checks.ts checks every request against its route's
// schema before the handler runs, so a handler reads typed values and never guesses at a shape.
// Which paths name content files is still decided by the workspace alone (workspace.ts): here a path
// is only text.
import { z } from 'zod';

/** A content file's path from the project root, such as "content/pages/about.yaml". */
export const contentPath = z.string();

const REVISION_MESSAGE = 'The revision must be a whole number of 0 or more.';

/** The draft revision a tab last saw: 0 when there was no draft. */
export const revision = z.number({ error: REVISION_MESSAGE }).int({ error: REVISION_MESSAGE }).min(0, { error: REVISION_MESSAGE });

/** The same revision written in an address (`?revision=3`). */
export const revisionInQuery = z
  .string()
  .regex(/^\d+$/, { error: REVISION_MESSAGE })
  .transform((digits) => Number(digits));

/** The version of the file on disk a tab opened; null for a file that was not on disk. */
export const diskVersion = z.string().nullable();

/** A page's data (or the site settings', or the ROI numbers'): an object, as the form sends it. */
export const pageData = z.record(z.string(), z.unknown(), { error: 'The page data is missing.' });

/** An article as the editor sends it: its details (front matter) and its text. */
export const articleData = z.object({ frontMatter: z.record(z.string(), z.unknown()), body: z.string() });

/** What a save was based on, as the workspace compares it: nothing seen is revision 0 of no disk version. */
export function seenOf(request: { revision?: number | undefined; diskVersion?: string | null | undefined }): {
  revision: number;
  diskVersion: string | null;
} {
  return { revision: request.revision ?? 0, diskVersion: request.diskVersion ?? null };
}

/**
 * The drafts a screen showed, each by its file and the fingerprint of its text, once each: a publish
 * makes exactly these live, and none that changed since.
 */
export const seenDrafts = z
  .array(z.object({ path: contentPath, fingerprint: z.string().max(64) }), {
    error: 'The request must list the changes the publish screen showed.',
  })
  .min(1, { error: 'There is nothing to publish: no page has unpublished changes.' })
  .max(1000, { error: 'The request lists more changes than the studio keeps.' })
  .refine((files) => new Set(files.map((file) => file.path)).size === files.length, {
    error: 'The request lists a file twice: open the publish screen again.',
  });
