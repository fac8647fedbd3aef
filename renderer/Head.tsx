import { useEffect } from 'react';
import type { HeadTags } from './head-tags.ts';

/**
 * Keeps document.head in step with the page after client-side navigation. The prerendered HTML
 * already has the same tags, so on the first page nothing is written: only what differs changes.
 */
export function useDocumentHead(head: HeadTags | undefined) {
  useEffect(() => {
    if (!head) return;
    if (document.title !== head.title) document.title = head.title;
    upsertLink('canonical', head.canonical);
    upsertMeta('name', 'robots', head.robots);
    for (const tag of head.meta) upsertMeta(tag.key, tag.name, tag.content);
    syncAlternates(head.alternates);
    removeStaleStructuredData(head.canonical);
  }, [head]);
}

function syncAlternates(alternates: HeadTags['alternates']) {
  const wanted = new Set(alternates.map((a) => a.href));
  for (const link of document.head.querySelectorAll<HTMLLinkElement>('link[rel="alternate"]')) {
    if (!wanted.has(link.getAttribute('href') ?? '')) link.remove();
  }
  for (const alternate of alternates) {
    if (document.head.querySelector(`link[rel="alternate"][href="${CSS.escape(alternate.href)}"]`)) continue;
    const link = document.createElement('link');
    Object.assign(link, { rel: 'alternate', type: alternate.type, title: alternate.title });
    link.setAttribute('href', alternate.href);
    document.head.append(link);
  }
}

/** The prerendered JSON-LD describes the page it was built for; after navigating away it would describe the wrong one. */
function removeStaleStructuredData(canonical: string) {
  for (const script of document.head.querySelectorAll<HTMLScriptElement>('script[type="application/ld+json"][data-canonical]')) {
    if (script.dataset.canonical !== canonical) script.remove();
  }
}

function upsertMeta(key: 'name' | 'property', name: string, content: string | undefined) {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${key}="${name}"]`);
  if (content === undefined) {
    element?.remove();
    return;
  }
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(key, name);
    document.head.append(element);
  }
  if (element.content !== content) element.content = content;
}

function upsertLink(rel: string, href: string) {
  let element = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  if (!element) {
    element = document.createElement('link');
    element.rel = rel;
    document.head.append(element);
  }
  if (element.getAttribute('href') !== href) element.href = href;
}
