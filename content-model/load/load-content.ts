// Loads every content file, validates it against the schemas and cross-checks links, slugs and pictures.
// Used by the build (Vite plugin), `npm run check:content` and tests; never shipped to browsers.
import { splitFrontMatter } from '../formats/front-matter.ts';
import { CONTENT_KINDS } from '../kinds.ts';
import { linkedAddress } from '../links.ts';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ARTICLE_PATH, BLOG_PREFIX, NOT_FOUND_PATH, pageAddressProblem } from '../addresses.ts';
import { brandContrastProblems, type BrandColour } from '../brand-colours.ts';
import { businessHoursProblems } from '../business-hours.ts';
import { contentWarnings } from '../checks/content-warnings.ts';
import { isRecord } from '../values.ts';
import { ContentError, issueAt, type ContentIssue } from '../content-issue.ts';
import { isInside, isReallyInside, LINK_OUTSIDE_CONTENT } from './content-files.ts';
import type { BlogPostFrontMatter, PageContent, RoiContent, SiteContent } from '../../generated/content-types.ts';
import { readImageSize, type ImageSize } from './image-size.ts';
import { createSchemaValidator, type SchemaName } from './validate-content.ts';
import { parseYamlSource, type YamlSource } from '../formats/yaml-source.ts';

export type LoadedPage = { name: string; file: string; page: PageContent };
export type LoadedPost = { slug: string; file: string; meta: BlogPostFrontMatter; body: string; imageSize?: ImageSize };
export type ContentBundle = {
  site: SiteContent;
  pages: LoadedPage[];
  /** Sorted by `order` (the first is the featured article). */
  posts: LoadedPost[];
  roi: RoiContent;
  /** Every file read, absolute, for watching. */
  files: string[];
  /** Advice that stops nothing (checks/content-warnings.ts), drafts included. */
  warnings: ContentIssue[];
};

export type ContentLocation = {
  /** Project root; file names in messages are relative to it. */
  root: string;
  contentDir?: string;
  publicDir?: string;
  /**
   * Texts that stand in for the files on disk, by absolute path (the studio checks unpublished
   * edits this way); `null` stands for a file deleted. Files not listed are read from disk.
   */
  overrides?: ReadonlyMap<string, string | null>;
  /** Keep pages and articles marked `draft: true` (the studio previews them); the build leaves them out. */
  includeDrafts?: boolean;
  /**
   * Leave out pages and articles with mistakes instead of failing (the studio's preview keeps drawing
   * the rest of the site while one file is being fixed). The site settings and ROI numbers must still
   * be valid: nothing can be drawn without them.
   */
  skipInvalid?: boolean;
};

export { ARTICLE_PATH, NOT_FOUND_PATH };

export function loadContent(location: ContentLocation): ContentBundle {
  const { root } = location;
  const contentDir = location.contentDir ?? path.join(root, 'content');
  const publicDir = location.publicDir ?? path.join(root, 'public');
  const validator = createSchemaValidator(root);
  const issues: ContentIssue[] = [];
  const files: string[] = [];
  const relative = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const disk = contentReader(location.overrides);

  /** A content file's text; undefined (and the reason among the issues) when it cannot be read. */
  const readText = (file: string): string | undefined => {
    const refuse = (message: string) => {
      issues.push({ file: relative(file), line: 1, column: 1, where: '', message });
      return undefined;
    };
    if (!disk.exists(file)) return refuse('This file is missing.');
    files.push(file);
    // A text from `overrides` stands in for the file, so nothing is read through a link.
    if (!disk.isStandIn(file) && !isReallyInside(file, contentDir)) return refuse(LINK_OUTSIDE_CONTENT);
    return disk.read(file);
  };

  const check = (file: string, schema: SchemaName, text: string, lineOffset = 0): YamlSource | undefined => {
    const source = parseYamlSource(relative(file), text, lineOffset);
    if (source.syntaxErrors.length) {
      issues.push(
        ...source.syntaxErrors.map((e) => ({ file: source.file, line: e.line, column: e.column, where: '', message: e.message })),
      );
      return undefined;
    }
    const found = validator.validate(schema, source);
    issues.push(...found);
    return found.length ? undefined : source;
  };

  const read = (file: string, schema: SchemaName): YamlSource | undefined => {
    const text = readText(file);
    return text === undefined ? undefined : check(file, schema, text);
  };
  // The kinds' paths start with content/, which may live elsewhere (tests load copies).
  const inContent = (relativePath: string) => path.join(contentDir, ...relativePath.split('/').slice(1));
  const { site: siteKind, roi: roiKind, page: pageKind, article: articleKind } = CONTENT_KINDS;
  const siteSource = read(inContent(siteKind.file), siteKind.schema);
  const roiSource = read(inContent(roiKind.file), roiKind.schema);

  const pageFiles = disk.list(inContent(pageKind.folder), pageKind.extension);
  const pages: (LoadedPage & { source: YamlSource })[] = [];
  // Paths of pages that have mistakes still count as existing, so links to them don't add noise.
  const declaredPaths: string[] = [];
  for (const file of pageFiles) {
    const text = readText(file);
    if (text === undefined) continue;
    const source = check(file, pageKind.schema, text);
    if (source)
      pages.push({ name: path.basename(file, pageKind.extension), file: relative(file), page: source.data as PageContent, source });
    else {
      const declared = readDeclaredPath(text);
      if (declared) declaredPaths.push(declared);
    }
  }

  const posts: (LoadedPost & { source: YamlSource; bodyLine: number; rawBody: string })[] = [];
  // Every article file, draft or not, with mistakes or not: no page may take an article's address.
  const articleFiles = disk.list(inContent(articleKind.folder), articleKind.extension);
  const articleSlugs = new Set(articleFiles.map((file) => path.basename(file, articleKind.extension)));
  for (const file of articleFiles) {
    const text = readText(file);
    if (text === undefined) continue;
    const parts = splitFrontMatter(text);
    if (!parts) {
      issues.push({
        file: relative(file),
        line: 1,
        column: 1,
        where: '',
        message:
          'The article’s details are missing: it must start with them (its title, excerpt, author, date, reading time, category, picture and order) between two lines of three dashes.',
      });
      continue;
    }
    const source = check(file, articleKind.schema, parts.yaml, 1);
    const body = parts.body.trim();
    if (source && !body)
      issues.push({
        file: relative(file),
        line: (parts.opening + parts.yaml + parts.closing).split('\n').length,
        column: 1,
        where: '',
        message: 'The article has no text: write it below its details.',
      });
    if (source)
      posts.push({
        slug: path.basename(file, articleKind.extension),
        file: relative(file),
        meta: source.data as BlogPostFrontMatter,
        body,
        source,
        // The line the Markdown starts on, less one: a warning on its line n is on this line + n.
        bodyLine: (parts.opening + parts.yaml + parts.closing).split('\n').length,
        rawBody: parts.body,
      });
  }
  posts.sort((a, b) => a.meta.order - b.meta.order);

  const drafts = location.includeDrafts
    ? { paths: new Set<string>(), slugs: new Set<string>() }
    : {
        paths: new Set(pages.filter((p) => p.page.draft === true).map((p) => p.page.path)),
        slugs: new Set(posts.filter((p) => p.meta.draft === true).map((p) => p.slug)),
      };
  if (siteSource) {
    crossCheck({
      site: siteSource,
      pages,
      posts,
      articleSlugs,
      publicDir,
      issues,
      declaredPaths,
      drafts,
      contentDir: relative(inContent(pageKind.folder)),
    });
  }
  const warnings = siteSource
    ? sortIssues(
        contentWarnings({
          site: siteSource,
          titleTemplate: (siteSource.data as SiteContent).seo.titleTemplate,
          pages,
          posts: posts.map((post) => ({ source: post.source, body: post.rawBody, bodyLine: post.bodyLine })),
        }),
      )
    : [];
  if (issues.length && !(location.skipInvalid && siteSource && roiSource)) throw new ContentError(sortIssues(issues), warnings);

  return {
    site: siteSource!.data as SiteContent,
    pages: pages.filter((p) => !drafts.paths.has(p.page.path)).map(({ source: _source, ...page }) => page),
    posts: posts.filter((p) => !drafts.slugs.has(p.slug)).map(({ source: _source, bodyLine: _line, rawBody: _raw, ...post }) => post),
    roi: roiSource!.data as RoiContent,
    files,
    warnings,
  };
}

function readDeclaredPath(text: string): string | undefined {
  const match = text.match(/^path:\s*["']?([^"'\s#]+)/m);
  return match?.[1];
}

/** The content files as they are on disk, or as `overrides` replace, add or delete them. */
function contentReader(overrides: ReadonlyMap<string, string | null> = new Map()) {
  return {
    exists: (file: string) => (overrides.has(file) ? overrides.get(file) !== null : existsSync(file)),
    /** Whether the text comes from `overrides`, not from the disk. */
    isStandIn: (file: string) => overrides.has(file),
    read: (file: string) => overrides.get(file) ?? readFileSync(file, 'utf8'),
    list(dir: string, extension: string): string[] {
      const onDisk = existsSync(dir) ? readdirSync(dir).map((f) => path.join(dir, f)) : [];
      const added = [...overrides.keys()].filter((file) => path.dirname(file) === dir);
      return [...new Set([...onDisk, ...added])]
        .filter((file) => file.endsWith(extension) && this.exists(file))
        .sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
    },
  };
}

function sortIssues(issues: ContentIssue[]): ContentIssue[] {
  return [...issues].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

type CrossCheckInput = {
  site: YamlSource;
  pages: { file: string; page: PageContent; source: YamlSource }[];
  posts: { slug: string; meta: BlogPostFrontMatter; source: YamlSource; imageSize?: ImageSize }[];
  /** Every article file's name, drafts and articles with mistakes included. */
  articleSlugs: ReadonlySet<string>;
  publicDir: string;
  issues: ContentIssue[];
  declaredPaths: string[];
  /** Pages and articles marked `draft: true`: left out of the build, so nothing published may link to them. */
  drafts: { paths: ReadonlySet<string>; slugs: ReadonlySet<string> };
  contentDir: string;
};

function crossCheck({ site, pages, posts, articleSlugs, publicDir, issues, declaredPaths, drafts, contentDir }: CrossCheckInput): void {
  const at = (source: YamlSource, segments: (string | number)[], message: string) => {
    const { line, column } = source.positionOf(segments);
    issues.push(issueAt({ file: source.file, line, column, data: source.data }, segments, message));
  };

  // Brand colours that the site would draw unreadable text with: an error, since the site would fail
  // its own accessibility tests.
  const brand = isRecord(site.data) && isRecord(site.data.brand) ? (site.data.brand as Partial<Record<BrandColour, string>>) : {};
  for (const problem of brandContrastProblems(brand)) at(site, ['brand', problem.colour], problem.message);

  // Business hours a clock cannot run on (a zone nobody knows, closing before opening): an error,
  // since every lead's clock until its first call would be wrong.
  const hours = isRecord(site.data) ? site.data.businessHours : undefined;
  for (const problem of businessHoursProblems(hours)) {
    at(site, ['businessHours', problem.field], problem.message);
  }

  const owners = new Map<string, string>();
  for (const { file, page, source } of pages) {
    const owner = owners.get(page.path);
    const problem =
      pageAddressProblem(page.path, { articleSlugs }) ??
      (owner && `The address "${page.path}" is already the address of the page "${owner}": give each page its own address.`);
    if (problem) at(source, ['path'], problem);
    // Registered even when refused, so links to it are not reported as well.
    // Named by its file's name without the folder ("about"): no path in a message.
    if (!owner) owners.set(page.path, path.basename(file, CONTENT_KINDS.page.extension));
    page.blocks.forEach((block, index) => {
      if (block.type === 'article' && page.path !== ARTICLE_PATH) {
        at(source, ['blocks', index], 'This block shows an article, so it only works on the page that shows each article: remove it here.');
      }
    });
  }
  if (!owners.has(NOT_FOUND_PATH)) {
    issues.push({
      file: contentDir,
      line: 1,
      column: 1,
      where: '',
      message: `The site has no page for an address that does not exist (its address is ${NOT_FOUND_PATH}): add one, so visitors who follow a broken link are told so.`,
    });
  }

  const orders = new Map<number, string>();
  for (const post of posts) {
    const { slug, meta, source } = post;
    const other = orders.get(meta.order);
    if (other)
      at(source, ['order'], `Order ${meta.order} is already the order of the article "${other}": give each article its own number.`);
    else orders.set(meta.order, slug);
    const picture = checkImage(meta.image);
    if ('problem' in picture) at(source, ['image'], picture.problem);
    else if (picture.size) post.imageSize = picture.size;
  }

  const known = new Set([...owners.keys(), ...declaredPaths].filter((p) => !p.includes(':') && p !== NOT_FOUND_PATH));
  if (owners.has(ARTICLE_PATH)) posts.forEach((p) => known.add(`${BLOG_PREFIX}${p.slug}`));
  const draftTargets = new Set([...drafts.paths, ...[...drafts.slugs].map((slug) => `${BLOG_PREFIX}${slug}`)]);

  // Draft pages may link anywhere (they are not built); everything published must link to published pages.
  const sources = [site, ...pages.filter((p) => !drafts.paths.has(p.page.path)).map((p) => p.source)];
  for (const source of sources) {
    walk(source.data, [], (value, segments) => {
      const key = segments[segments.length - 1];
      if (key === 'href' && typeof value === 'string' && value.startsWith('/')) {
        // "//host" names another site: no page of this one is called that, so it is reported below.
        const target = linkedAddress(value) ?? value;
        if (draftTargets.has(target)) {
          at(
            source,
            segments,
            `The link "${value}" goes to a page that is not published yet: publish that page first, or link to another one.`,
          );
        } else if (!known.has(target)) {
          const pagesList = [...known]
            .filter((p) => !p.startsWith(BLOG_PREFIX))
            .sort()
            .join(', ');
          at(source, segments, `"${value}" is not a page of the site: choose one of its pages (${pagesList}) or an article.`);
        }
      }
      if (isImage(value)) {
        const picture = checkImage(value.src);
        if ('problem' in picture) at(source, [...segments, 'src'], picture.problem);
        else if (picture.size) {
          const { width, height } = picture.size;
          if (value.width === undefined) value.width = width;
          if (value.height === undefined) value.height = value.width === width ? height : Math.round((height * value.width) / width);
        } else if (value.width === undefined || value.height === undefined) {
          at(
            source,
            [...segments, 'src'],
            'The size of this picture cannot be read from its file: give its width and height, or choose another picture.',
          );
        }
      }
    });
  }

  /**
   * The size of the picture at `src`, or what is wrong with it. Only files really inside
   * public/images/ are looked at: a path climbing out, or a link to elsewhere, would tell whoever
   * writes content whether any file on the server exists, and its size.
   */
  function checkImage(src: string): { size: ImageSize | undefined } | { problem: string } {
    const imagesDir = path.join(publicDir, 'images');
    const file = path.join(publicDir, src);
    // One message whether the file is missing, elsewhere or a link out: it tells nothing of the server's files.
    const unknown = {
      problem: `The picture "${src}" is not one of the site's pictures: choose a picture from the list, or upload it.`,
    };
    if (!isInside(file, imagesDir)) return unknown;
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return unknown;
    if (!isReallyInside(file, imagesDir)) return unknown;
    return { size: readImageSize(file) };
  }
}

type ImageValue = { src: string; alt: string; width?: number; height?: number };

function isImage(value: unknown): value is ImageValue {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ImageValue).src === 'string' &&
    typeof (value as ImageValue).alt === 'string'
  );
}

function walk(value: unknown, segments: (string | number)[], visit: (value: unknown, segments: (string | number)[]) => void): void {
  visit(value, segments);
  if (Array.isArray(value)) value.forEach((item, i) => walk(item, [...segments, i], visit));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) walk(item, [...segments, key], visit);
  }
}
