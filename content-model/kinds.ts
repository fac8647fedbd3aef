// The kinds of content file, in one table: where each lives, which schema checks it, how it is
// written, what it is called, what address it gives a page, and what a new one starts with. The
// build, the content check, the studio's server and its forms all read this table, so a kind is
// added, moved or renamed here alone.

export type ContentKind = 'site' | 'roi' | 'page' | 'article';

/** How a file's text holds its data: YAML, or Markdown with YAML front matter. */
export type ContentFormat = 'yaml' | 'markdown';

type KindBase = {
  /** What the studio calls the kind (a file of one, a group in the navigator for the others). */
  title: string;
  /** The schema file in schema/ the file's data (an article's front matter) must match. */
  schema: string;
  format: ContentFormat;
  /** The TypeScript type `npm run generate` writes for its data (generated/content-types.ts). */
  typeName: string;
};

/** One file for the whole site: the site settings, the ROI numbers. */
export type SingletonKind = KindBase & { shape: 'singleton'; file: string };

/** A folder of files, one per page or article, each named by its file name. */
export type CollectionKind = KindBase & {
  shape: 'collection';
  folder: string;
  extension: '.yaml' | '.md';
  /** One of them, in a sentence: "page", "article". */
  noun: string;
  /**
   * The data field a file writes its address in ("path"), when the file chooses its own address;
   * none when the address follows from the file's name (an article's /blog/name). Such an address
   * can be changed, and a copy of the file needs one of its own.
   */
  addressField?: string;
  /** The address a file gives its page on the site, from its name and data. */
  addressOf(name: string, data: Record<string, unknown>): string | undefined;
  /** A new file's data, before anyone has written anything. */
  startingData(name: string, context: { today: string; order: number }): Record<string, unknown>;
};

export type KindDefinition = SingletonKind | CollectionKind;

/** File names of pages and articles: lowercase letters, digits and dashes ("spring-offer"). */
export const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,80}$/;

export const ARTICLE_PREFIX = '/blog/';

export const CONTENT_KINDS = {
  site: {
    shape: 'singleton',
    title: 'Site settings',
    file: 'content/site.yaml',
    schema: 'site.schema.json',
    format: 'yaml',
    typeName: 'SiteContent',
  },
  roi: {
    shape: 'singleton',
    title: 'ROI calculator numbers',
    file: 'content/roi.yaml',
    schema: 'roi.schema.json',
    format: 'yaml',
    typeName: 'RoiContent',
  },
  page: {
    shape: 'collection',
    title: 'Pages',
    noun: 'page',
    folder: 'content/pages',
    extension: '.yaml',
    schema: 'page.schema.json',
    format: 'yaml',
    typeName: 'PageContent',
    addressField: 'path',
    addressOf: (_name, data) => (typeof data.path === 'string' ? data.path : undefined),
    startingData: (name) => ({
      path: `/${name}`,
      title: titleOf(name),
      description: `${titleOf(name)}: a new page. Replace this description with one or two sentences for search results.`,
      draft: true,
      blocks: [{ type: 'hero', heading: titleOf(name) }],
    }),
  },
  article: {
    shape: 'collection',
    title: 'Articles',
    noun: 'article',
    folder: 'content/blog',
    extension: '.md',
    schema: 'blog-post.schema.json',
    format: 'markdown',
    typeName: 'BlogPostFrontMatter',
    addressOf: (name) => `${ARTICLE_PREFIX}${name}`,
    startingData: (name, { today, order }) => ({
      title: titleOf(name),
      excerpt: 'One or two sentences that make people want to read the article.',
      author: 'Premier AI Consulting',
      date: today,
      readTime: '5 min read',
      category: 'AI Strategy',
      image: '/images/blog/what-is-ai-consulting.svg',
      imageAlt: 'Describe the picture for people who cannot see it',
      order,
      draft: true,
    }),
  },
} as const satisfies Record<ContentKind, KindDefinition>;

/** The kinds whose files are pages of the site, one file each (see `isCollectionKind`). */
export type CollectionKindName = { [K in ContentKind]: (typeof CONTENT_KINDS)[K]['shape'] extends 'collection' ? K : never }[ContentKind];

/** The kinds in the order the studio lists them. */
export const KIND_ORDER: readonly ContentKind[] = ['site', 'roi', 'page', 'article'];

export function kindDefinition(kind: ContentKind): KindDefinition {
  return CONTENT_KINDS[kind];
}

/**
 * Whether a file of the kind is one of many pages of the site, each with an address of its own (a
 * page, an article): such a file can be created, duplicated and deleted, and shows in search results.
 */
export function isCollectionKind(kind: ContentKind): kind is CollectionKindName {
  return CONTENT_KINDS[kind].shape === 'collection';
}

/** The data field a file of the kind writes its own address in (a page's "path"); undefined when it has none. */
export function addressFieldOf(kind: ContentKind): string | undefined {
  const definition: KindDefinition = CONTENT_KINDS[kind];
  return definition.shape === 'collection' ? definition.addressField : undefined;
}

/** The kind and name of a content file from its path ("content/pages/about.yaml"); undefined for any other path. */
export function contentFileOf(relative: string): { kind: ContentKind; name: string } | undefined {
  for (const kind of KIND_ORDER) {
    const definition: KindDefinition = CONTENT_KINDS[kind];
    if (definition.shape === 'singleton') {
      if (relative === definition.file) return { kind, name: kind };
      continue;
    }
    const prefix = `${definition.folder}/`;
    if (!relative.startsWith(prefix) || !relative.endsWith(definition.extension)) continue;
    const name = relative.slice(prefix.length, -definition.extension.length);
    if (NAME_PATTERN.test(name)) return { kind, name };
  }
  return undefined;
}

/** The address a new file of the kind named `name` gets: "/spring-offer" for a page, "/blog/spring-offer" for an article. */
export function newFileAddress(kind: CollectionKindName, name: string): string | undefined {
  const definition: CollectionKind = CONTENT_KINDS[kind];
  // The starting data holds no date or order an address could depend on.
  return definition.addressOf(name, definition.startingData(name, { today: '', order: 0 }));
}

/** The path of a page's or an article's file from its name. */
export function collectionPath(kind: CollectionKindName, name: string): string {
  const definition = CONTENT_KINDS[kind];
  return `${definition.folder}/${name}${definition.extension}`;
}

/** "spring-offer" → "Spring offer" */
export function titleOf(name: string): string {
  const words = name.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
