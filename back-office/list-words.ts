// A list said as a sentence says it: "Home", "Home and About", "Home, About and Pricing". The
// studio's screens and sentences, and the e-mails the server sends about the studio, name pages and
// people this way.

export function listWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
