import { useEffect } from 'react';
import type { HeadTags } from './head-tags.ts';

/** Keeps document.head in step with the page after client-side navigation. The prerendered HTML already has the same tags. */
export function useDocumentHead(head: HeadTags | undefined) {
  useEffect(() => {
    if (!head) return;
    document.title = head.title;
    upsertLink('canonical', head.canonical);
    upsertMeta('name', 'robots', head.robots);
    for (const tag of head.meta) upsertMeta(tag.key, tag.name, tag.content);
  }, [head]);
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
  element.content = content;
}

function upsertLink(rel: string, href: string) {
  let element = document.head.querySelector<HTMLLinkElement>(`link[rel="${rel}"]`);
  if (!element) {
    element = document.createElement('link');
    element.rel = rel;
    document.head.append(element);
  }
  element.href = href;
}
