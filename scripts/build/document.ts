// The HTML document around every prerendered page. The build writes it whole: the page's head tags,
// its prerendered app, its router data and the boot loader (no script starts before the first paint).
// index.html at the project root is the dev server's equivalent and is not used by the build.
import { FAVICON_PATH } from '../seo/seo-build.ts';

export type DocumentParts = {
  /** The browser UI colour (address bar on phones); the brand's primary colour. */
  readonly themeColor: string;
  /** Tags for <head>: font preload, title, description, canonical, Open Graph, JSON-LD. */
  readonly head: string;
  /** Attributes of the app's root element, already escaped. */
  readonly rootAttributes: string;
  readonly appHtml: string;
  /** What ends <body>: the router data block and the boot loader. */
  readonly tail: string;
};

const HTML_ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' };

function escapeAttribute(value: string): string {
  return value.replace(/[&"<>]/g, (character) => HTML_ATTRIBUTE_ESCAPES[character] ?? character);
}

export function renderDocument({ themeColor, head, rootAttributes, appHtml, tail }: DocumentParts): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="theme-color" content="${escapeAttribute(themeColor)}">
    <link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
    ${head}
  </head>
  <body>
    <div id="root" ${rootAttributes}>${appHtml}</div>
    ${tail}
  </body>
</html>
`;
}
