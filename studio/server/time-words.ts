// Times in the sentences the studio server writes ("Live since 10:42", "That time has passed: choose
// a time after now (Tue 1 Dec, 10:42 (America/Chicago))"), worded as the browser words them on the
// screen: the same formatter (../time-words.ts), in the language the request asks in
// (Accept-Language). The language is kept for each request's work, so a sentence written deep in a
// publish it started still reads in that person's language; work no request started (a scheduled
// publish at its time) uses the default.
import { AsyncLocalStorage } from 'node:async_hooks';
import { momentInZoneWords, momentWords, sinceWords, usableLanguage, type TimeWordsOptions } from '../time-words.ts';

const requestLanguage = new AsyncLocalStorage<string>();

/** The first language of an Accept-Language header that Intl understands ("en-US,en;q=0.9" → en-US). */
export function languageOfHeader(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(',').slice(0, 8)) {
    const tag = part.split(';')[0]!.trim();
    if (!tag || tag === '*') continue;
    const usable = usableLanguage(tag);
    if (usable.toLowerCase() === tag.toLowerCase() || tag.toLowerCase().startsWith(usable.toLowerCase())) return usable;
  }
  return undefined;
}

/** Runs `work` (and everything it starts) with times worded in `language`. */
export function inLanguage<T>(language: string | undefined, work: () => T): T {
  return requestLanguage.run(usableLanguage(language), work);
}

/** The language of the request whose work this is; undefined outside any. */
export function currentLanguage(): string | undefined {
  return requestLanguage.getStore();
}

type ServerTimeOptions = Omit<TimeWordsOptions, 'language'>;

/** `momentWords` in the current request's language. */
export const serverMoment = (at: string | number, options: ServerTimeOptions) =>
  momentWords(at, { ...options, language: currentLanguage() });
/** `sinceWords` in the current request's language. */
export const serverSince = (at: string | number, options: ServerTimeOptions) => sinceWords(at, { ...options, language: currentLanguage() });
/** `momentInZoneWords` in the current request's language. */
export const serverMomentInZone = (at: string | number, options: ServerTimeOptions) =>
  momentInZoneWords(at, { ...options, language: currentLanguage() });
