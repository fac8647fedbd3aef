// The preview beside the form: the real page in a frame at phone or desktop width, redrawn on every
// change (no save needed). It scrolls to the block being edited; a click on a block opens it.
import { css } from '@emotion/react';
import { useEffect, useRef, useState } from 'react';
import type { PageContent } from '../../generated/content-types.ts';
import type { BlogPostFrontMatter } from '../../generated/content-types.ts';
import { blogIndexEntry } from '../../content-model/blog-index.ts';
import type { SiteData } from '../../ui/page/site-context.tsx';
import { api } from './api.ts';
import { EDITOR_SOURCE, PREVIEW_SOURCE, type FromPreview, type PreviewContent, type ToPreview } from './preview-protocol.ts';
import { color, ui } from './ui.ts';

export type PreviewTarget =
  | { kind: 'page'; page: unknown }
  | { kind: 'article'; slug: string; article: { frontMatter: Record<string, unknown>; body: string } }
  | { kind: 'site'; site: unknown };

const WIDTHS = { phone: 390, desktop: 1280 } as const;
type Width = keyof typeof WIDTHS;

/** Keystroke-to-preview timings (ms), read by the studio benchmark. */
type Timings = { lastInputAt: number; samples: number[] };
declare global {
  interface Window {
    __studioPreview?: Timings;
  }
}
const timings: Timings = { lastInputAt: 0, samples: [] };
if (typeof window !== 'undefined') {
  window.__studioPreview = timings;
  window.addEventListener('input', (event) => (timings.lastInputAt = event.timeStamp), true);
}

export function PreviewPane({
  target,
  focusedBlock,
  onSelectBlock,
  title = 'Preview of the page',
}: {
  target: PreviewTarget | null;
  focusedBlock: number | null;
  onSelectBlock: (index: number) => void;
  /** The frame's name for screen readers (an older version is named as one). */
  title?: string;
}) {
  const frame = useRef<HTMLIFrameElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [content, setContent] = useState<PreviewContent | null>(null);
  // On a phone the studio starts with the phone view: a desktop page scaled to a phone is unreadable.
  const [width, setWidth] = useState<Width>(() => (window.innerWidth < 700 ? 'phone' : 'desktop'));
  const [scale, setScale] = useState(1);
  const [failed, setFailed] = useState('');
  const seq = useRef(0);
  const sentAt = useRef(new Map<number, number>());
  const onSelect = useRef(onSelectBlock);
  onSelect.current = onSelectBlock;

  useEffect(() => {
    api.previewData().then(
      (data) => setContent(data),
      () => setFailed('The preview could not load the site’s settings.'),
    );
  }, []);

  useEffect(() => {
    const listener = (event: MessageEvent<FromPreview & { source?: string }>) => {
      if (event.origin !== window.location.origin || event.data?.source !== PREVIEW_SOURCE || event.source !== frame.current?.contentWindow)
        return;
      if (event.data.type === 'ready') setReady(true);
      else if (event.data.type === 'select') onSelect.current(event.data.index);
      else if (event.data.type === 'rendered') {
        const inputAt = sentAt.current.get(event.data.seq);
        if (inputAt !== undefined && inputAt > 0) timings.samples.push(performance.now() - inputAt);
        sentAt.current.delete(event.data.seq);
      }
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);

  // Scale the page to the pane, as a phone or a desktop browser would show it.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setScale(Math.min(1, element.clientWidth / WIDTHS[width])));
    observer.observe(element);
    return () => observer.disconnect();
  }, [width]);

  const send = (message: ToPreview) =>
    frame.current?.contentWindow?.postMessage({ source: EDITOR_SOURCE, ...message }, window.location.origin);

  useEffect(() => {
    if (ready && content) send({ type: 'content', content });
  }, [ready, content]);

  useEffect(() => {
    if (!ready || !content || !target) return;
    const message = renderMessage(target, content, ++seq.current);
    if (!message) return;
    // A change that came from typing is timed from the keystroke; others are not timed.
    const sinceInput = performance.now() - timings.lastInputAt;
    sentAt.current.set(message.seq, sinceInput < 1000 ? timings.lastInputAt : 0);
    send(message);
  }, [ready, content, target]);

  // Sent after the first render is asked for (the effect above runs first), so the block exists.
  useEffect(() => {
    if (ready && content && focusedBlock !== null) send({ type: 'scroll-to', index: focusedBlock });
  }, [ready, content, focusedBlock]);

  return (
    <section id="preview" tabIndex={-1} aria-label="Preview" css={css({ position: 'sticky', top: 8, alignSelf: 'start' })}>
      <div css={css({ display: 'flex', gap: 8, alignItems: 'center', marginBottom: 6 })}>
        <h2 css={css({ fontSize: 16, margin: 0, flex: 1 })}>Preview</h2>
        <div role="group" aria-label="Preview width" css={css({ display: 'flex', gap: 4 })}>
          {(Object.keys(WIDTHS) as Width[]).map((option) => (
            <button key={option} type="button" css={ui.secondaryButton} aria-pressed={width === option} onClick={() => setWidth(option)}>
              {option === 'phone' ? 'Phone (390 px)' : 'Desktop (1280 px)'}
            </button>
          ))}
        </div>
      </div>
      {failed && (
        <p role="alert" css={ui.errorBanner}>
          {failed}
        </p>
      )}
      {!target && <p css={ui.help}>This file has no page to preview.</p>}
      <div
        ref={box}
        css={css({
          width: '100%',
          height: '78vh',
          overflow: 'hidden',
          border: `1px solid ${color.strongBorder}`,
          borderRadius: 8,
          background: color.surface,
        })}
      >
        <iframe
          ref={frame}
          title={title}
          src="/preview"
          css={css({ border: 0, transformOrigin: '0 0', display: 'block' })}
          style={{ width: WIDTHS[width], height: `calc(78vh / ${scale})`, transform: `scale(${scale})` }}
        />
      </div>
    </section>
  );
}

function renderMessage(target: PreviewTarget, content: PreviewContent, seq: number): Extract<ToPreview, { type: 'render' }> | null {
  if (target.kind === 'page') {
    const page = target.page as PageContent;
    if (!page || !Array.isArray(page.blocks)) return null;
    const path =
      !page.path || page.path === '*'
        ? '/not-found'
        : page.path.includes(':')
          ? `/blog/${Object.keys(content.articles)[0] ?? 'article'}`
          : page.path;
    const slug = path.startsWith('/blog/') ? path.slice('/blog/'.length) : undefined;
    return {
      type: 'render',
      seq,
      page: { ...page, blocks: page.blocks.filter(isBlock) },
      path,
      ...(slug && content.articles[slug] ? { article: content.articles[slug] } : {}),
    };
  }
  if (target.kind === 'article') {
    const articlePage = content.pages['/blog/:slug'];
    if (!articlePage) return null;
    const meta = target.article.frontMatter as BlogPostFrontMatter;
    const entry = safeEntry(target.slug, meta);
    if (!entry) return null;
    return { type: 'render', seq, page: articlePage, path: `/blog/${target.slug}`, article: { ...entry, body: target.article.body } };
  }
  const home = content.pages['/'];
  if (!home) return null;
  return { type: 'render', seq, page: home, path: '/', site: { ...(target.site as SiteData), siteUrl: '', leadEndpoint: '' } };
}

function safeEntry(slug: string, meta: BlogPostFrontMatter) {
  try {
    return blogIndexEntry({ slug, meta });
  } catch {
    return undefined;
  }
}

function isBlock(block: unknown): block is PageContent['blocks'][number] {
  return typeof block === 'object' && block !== null && typeof (block as { type?: unknown }).type === 'string';
}
