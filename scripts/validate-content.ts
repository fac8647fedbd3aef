// `npm run check:content`: the full content check (schemas, links, slugs, pictures) with editor-friendly messages.
import path from 'node:path';
import { ContentError } from '../renderer/content-issue.ts';
import { loadContent } from '../renderer/load-content.ts';

const root = path.resolve(import.meta.dirname, '..');
const contentDir = process.env.CONTENT_DIR ? path.resolve(process.env.CONTENT_DIR) : undefined;
try {
  const content = loadContent({ root, contentDir });
  console.log(`Content OK: site.yaml, roi.yaml, ${content.pages.length} pages, ${content.posts.length} articles.`);
} catch (error) {
  if (!(error instanceof ContentError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
