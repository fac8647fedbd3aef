// Brings a fetched page's <head> into the current document on client-side navigation: its component
// styles (before the content that needs them) and its page tags (title, description, canonical,
// Open Graph, robots, feeds, JSON-LD). What both pages share stays untouched.
import { PRERENDERED_STYLES_ATTRIBUTE } from '../prerendered-styles.ts';

const PAGE_TAGS = [
  'title',
  'meta[name]:not([name="viewport"])',
  'meta[property]',
  'link[rel="canonical"]',
  'link[rel="alternate"]',
  'script[type="application/ld+json"]',
].join(', ');

const STYLES = `style[${PRERENDERED_STYLES_ATTRIBUTE}]`;

export function syncHead(current: Document, next: Document): void {
  // Style rules are named by emotion's content hash: a <style> whose rules are all present is skipped.
  const present = new Set([...current.head.querySelectorAll(STYLES)].flatMap(styleIds));
  for (const style of next.head.querySelectorAll(STYLES)) {
    if (styleIds(style).some((id) => !present.has(id))) current.head.append(current.importNode(style, true));
  }

  const wanted = new Map([...next.head.querySelectorAll(PAGE_TAGS)].map((element) => [element.outerHTML, element]));
  for (const element of current.head.querySelectorAll(PAGE_TAGS)) {
    if (!wanted.delete(element.outerHTML)) element.remove();
  }
  for (const element of wanted.values()) current.head.append(current.importNode(element, true));
}

function styleIds(style: Element): string[] {
  return (style.getAttribute(PRERENDERED_STYLES_ATTRIBUTE) ?? '').split(' ').slice(1);
}
