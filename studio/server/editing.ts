// The content work the routes share: reading a file's data as the editor shows it, turning the data
// the editor sends back into the file's next text (editing the YAML in place, so comments and layout
// survive), the preview's data, and the text of a new page or article. Kept apart from the routes so
// each route reads as what it answers, and every route turns data into text the same way.
import { blogIndexEntry } from '../../content-model/blog-index.ts';
import { ContentError, type ContentIssue } from '../../content-model/content-issue.ts';
import { writeFrontMatter } from '../../content-model/formats/front-matter.ts';
import { TOO_MANY_ALIASES } from '../../content-model/formats/yaml-source.ts';
import {
  readMarkdownFile,
  stringifyYaml,
  updateMarkdownFile,
  updateYaml,
  type MarkdownFile,
} from '../../content-model/formats/yaml-edit.ts';
import { collectionPath, CONTENT_KINDS } from '../../content-model/kinds.ts';
import { ARTICLE_PATH, loadContent, type ContentBundle } from '../../content-model/load/load-content.ts';
import { isRecord } from '../../content-model/values.ts';
import { readFileData } from './file-data.ts';
import { inFormWords } from './issue-words.ts';
import { diffHunks } from './line-diff.ts';
import type { OpenedFile as OpenedFileAnswer } from '../api-types.ts';
import type { Publisher } from './publish.ts';
import { articleData } from './request-shapes.ts';
import { WorkspaceError, type ContentFile, type OpenedFile, type Workspace } from './workspace.ts';

export type ContentEditing = ReturnType<typeof createContentEditing>;

export function createContentEditing({ root, workspace, publisher }: { root: string; workspace: Workspace; publisher: Publisher }) {
  function currentTextOf(opened: OpenedFile): string {
    return workspace.currentText(opened) ?? '';
  }

  /** The data of the text the person is working on; a text that cannot be read is a 400 naming why. */
  function parseData(opened: OpenedFile): unknown {
    return readCurrent(opened, (text) => readFileData(opened.file.kind, text));
  }

  /** An article's details and text as the person is working on them. */
  function readArticle(opened: OpenedFile): MarkdownFile {
    return readCurrent(opened, readMarkdownFile);
  }

  function readCurrent<T>(opened: OpenedFile, read: (text: string) => T): T {
    try {
      return read(currentTextOf(opened));
    } catch (error) {
      throw new WorkspaceError(`"${workspace.spokenName(opened.file)}" cannot be read as a form: ${yamlErrorText(error)}`);
    }
  }

  /** The file's next text with `data` written into it, editing the current YAML in place. */
  function nextText(opened: OpenedFile, data: unknown): string {
    if (typeof data !== 'object' || data === null) throw new WorkspaceError('The page data is missing.');
    const text = currentTextOf(opened);
    if (opened.file.kind === 'article') return updateMarkdownFile(text, checkArticleData(data));
    return text ? updateYaml(text, data) : stringifyYaml(data);
  }

  /** A content file as the editor opens it (GET /api/file). */
  function describeOpened(opened: OpenedFile, issues: ContentIssue[]): OpenedFileAnswer {
    const text = workspace.currentText(opened);
    let data: unknown = null;
    let parseError: string | undefined;
    if (text !== null) {
      try {
        data = readFileData(opened.file.kind, text);
      } catch (error) {
        parseError = `This file has a mistake the studio cannot show as a form: ${yamlErrorText(error)} Fix it in a text editor, or discard the draft.`;
      }
    }
    return {
      path: opened.file.path,
      kind: opened.file.kind,
      name: opened.file.name,
      data,
      ...(parseError ? { parseError } : {}),
      deleted: text === null,
      isNew: !opened.disk,
      edited: opened.draft !== undefined,
      revision: opened.draft?.revision ?? 0,
      diskVersion: opened.disk?.version ?? null,
      issues,
      ...(opened.draft && opened.draft.baseVersion !== (opened.disk?.version ?? null)
        ? {
            diskChanged: {
              message: `"${workspace.spokenName(opened.file)}" changed since your draft was started: someone published another version.`,
              hunks: diffHunks(opened.disk?.text ?? '', opened.draft.text ?? ''),
            },
          }
        : {}),
    };
  }

  /** The content mistakes and warnings (marked `severity: 'warning'`) in one file, with every draft applied. */
  function issuesFor(file: ContentFile): ContentIssue[] {
    const { errors, warnings } = publisher.check(workspace.listDrafts());
    return [...errors, ...warnings].filter((issue) => issue.file === file.path);
  }

  /** The content with every draft applied, as the preview draws it; a file with a mistake is left out. */
  function loadDraftedContent(): ContentBundle {
    // A page or article with a mistake is left out; the one being edited is drawn from the form.
    let content;
    try {
      content = loadContent({ root, overrides: workspace.draftOverrides(), includeDrafts: true, skipInvalid: true });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      // The site settings or ROI numbers in a draft have a mistake: the preview uses the ones on disk.
      try {
        content = loadContent({ root, includeDrafts: true, skipInvalid: true });
      } catch (diskError) {
        if (!(diskError instanceof ContentError)) throw diskError;
        // Nothing can be drawn without them: say where the mistake is, in the form's words.
        const [first] = inFormWords(root, workspace, diskError.issues, new Map());
        const place = first ? [first.fileName, first.place].filter(Boolean).join(' › ') : '';
        throw new WorkspaceError(
          `The preview cannot be drawn: ${first ? `${place ? `${place}: ` : ''}${first.message}` : 'the site settings or the ROI numbers have a mistake.'} A developer must fix it in the published settings; the studio keeps your drafts.`,
          422,
        );
      }
    }
    return content;
  }

  /** Everything the preview draws the site from, with the drafts applied. */
  function previewData() {
    const content = loadDraftedContent();
    return {
      site: { ...content.site, siteUrl: '', leadEndpoint: '' },
      roi: content.roi,
      posts: content.posts.map(blogIndexEntry),
      articles: Object.fromEntries(content.posts.map((post) => [post.slug, { ...blogIndexEntry(post), body: post.body }])),
      pages: Object.fromEntries(
        content.pages.filter((p) => p.page.path === '/' || p.page.path === ARTICLE_PATH).map((p) => [p.page.path, p.page]),
      ),
    };
  }

  /** The first name `<original>-copy`, `<original>-copy-3`, … that no page or article has yet. */
  function freeName(original: string, kind: 'page' | 'article'): string {
    const existing = new Set(workspace.listEntries().map((entry) => entry.path));
    for (let n = 2; ; n++) {
      const name = `${original}-copy${n === 2 ? '' : `-${n}`}`;
      if (!existing.has(collectionPath(kind, name))) return name;
    }
  }

  /** The text of a new page: a copy of `copyFrom` (kept as a draft), or the starting page. */
  function newPageText(name: string, copyFrom: string | undefined): string {
    if (copyFrom) {
      const source = workspace.open(copyFrom);
      if (source.file.kind !== 'page') throw new WorkspaceError('Only a page can be copied into a new page.');
      const parsed = parseData(source);
      const data = isRecord(parsed) ? parsed : {};
      return stringifyYaml({ ...data, path: `/${name}`, title: `${String(data.title ?? name)} (copy)`.slice(0, 70), draft: true });
    }
    return stringifyYaml(CONTENT_KINDS.page.startingData(name));
  }

  /** The text of a new article: a copy of `copyFrom` (kept as a draft), or the starting article. */
  function newArticleText(name: string, copyFrom: string | undefined): string {
    if (copyFrom) {
      const source = workspace.open(copyFrom);
      if (source.file.kind !== 'article') throw new WorkspaceError('Only an article can be copied into a new article.');
      const article = readArticle(source);
      const frontMatter = isRecord(article.frontMatter) ? article.frontMatter : {};
      // After every other article, so the copy's order is no other article's.
      const order = Math.max(0, ...loadDraftedContent().posts.map((post) => post.meta.order)) + 1;
      const copy = { ...frontMatter, title: `${String(frontMatter.title ?? name)} (copy)`, order, draft: true };
      return writeFrontMatter(stringifyYaml(copy), article.body);
    }
    const today = new Date().toISOString().slice(0, 10);
    // New articles go after every other, out of the way of the ones people have ordered.
    const order = workspace.listEntries().filter((entry) => entry.kind === 'article').length + 101;
    const frontMatter = CONTENT_KINDS.article.startingData(name, { today, order });
    return writeFrontMatter(stringifyYaml(frontMatter), 'Write the article here. Blank lines separate paragraphs.\n');
  }

  return { currentTextOf, parseData, nextText, describeOpened, issuesFor, previewData, freeName, newPageText, newArticleText };
}

/** An article as the editor sends it: its details (front matter) and its text. */
export function checkArticleData(data: unknown): { frontMatter: Record<string, unknown>; body: string } {
  const checked = articleData.safeParse(data);
  if (!checked.success) throw new WorkspaceError('An article needs its details and its text.');
  return checked.data;
}

/** A YAML reading error in one plain sentence. */
function yamlErrorText(error: unknown): string {
  // yaml refuses to expand anchors that repeat past its limit with a ReferenceError.
  if (error instanceof ReferenceError) return TOO_MANY_ALIASES;
  return `${(error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/\.$/, '')}.`;
}
