// What the site's blocks import as `virtual:content/site`, `…/roi` and `…/blog-index` in the studio's
// preview: objects filled from the editor's messages before any block loads, and refreshed in place,
// so the preview shows the site with every draft applied.
import type { RoiContent } from '../../../generated/content-types.ts';
import type { BlogIndexEntry } from '../../../content-model/blog-index.ts';
import type { SiteData } from '../../../ui/page/site-context.tsx';
import type { PreviewContent } from '../preview-protocol.ts';

export const liveSite = {} as SiteData;
export const liveRoi = {} as RoiContent;
export const livePosts: BlogIndexEntry[] = [];

export function setLiveContent(content: PreviewContent): void {
  replaceObject(liveSite, content.site);
  replaceObject(liveRoi, content.roi);
  livePosts.splice(0, livePosts.length, ...content.posts);
}

function replaceObject(target: object, source: object): void {
  for (const key of Object.keys(target)) delete (target as Record<string, unknown>)[key];
  Object.assign(target, source);
}
