// Characters a person cannot see that change what they read: zero-width spaces and joiners, the
// left-to-right and right-to-left marks, and the bidirectional controls. In a link one can make
// "https://evil.example/gpj.exe" read as another address; in a heading it can hide or reorder words.
// Links refuse them (the schema's patterns exclude them, and the mistake is named in plain words),
// and the studio's review diff shows each as a visible mark, so a reviewer sees what is really there.

/** Any one of the characters, as a pattern: U+200B–U+200F, U+202A–U+202E, U+2066–U+2069. */
export const HIDDEN_CHARACTER = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/u;
const HIDDEN_CHARACTERS = /[\u200B-\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** What a link holding one is told, in plain words. */
export const HIDDEN_CHARACTER_MESSAGE =
  'This link holds an invisible character (such as a right-to-left mark or a zero-width space) that can make it look like another address. Type the address again without it.';

/** `text` with each hidden character shown as a mark naming it, such as ⟨U+202E⟩. */
export function showHiddenCharacters(text: string): string {
  return text.replace(HIDDEN_CHARACTERS, (found) => `⟨U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`);
}
