// Lead text is visitor input, and a terminal obeys control characters: ESC sequences retitle the
// window, recolour or hide text, a carriage return overwrites what came before, and bidirectional
// overrides reorder what is shown. Everything the leads and users CLIs print passes through here.

// C0 controls (tab and line breaks included), DEL, C1 controls, the bidirectional marks, overrides and
// isolates, and characters that take no space and can hide or fake what a cell says (zero-width space,
// word joiner, BOM; the joiners that emoji and some scripts need stay).
// eslint-disable-next-line no-control-regex -- matching control characters is this module's purpose
const CONTROL_OR_REORDERING = /[\u0000-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
// The same, less tab and line breaks, which a CSV cell may hold inside its quotes.
const CONTROL_OR_REORDERING_BUT_LINES =
  // eslint-disable-next-line no-control-regex -- as above
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;
// What JSON.stringify leaves raw: DEL, C1 controls, the reordering marks and the spaceless characters
// above (it escapes C0 itself).
const RAW_IN_JSON = /[\u007F-\u009F\u061C\u200B\u200E\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/g;

function visibleEscape(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0xff ? `\\x${code.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** One line of a table: every control character is shown as `\xHH` text, line breaks included. */
export function toTerminalCell(text: string): string {
  return text.replace(CONTROL_OR_REORDERING, visibleEscape);
}

/**
 * A CSV cell's text: tab and line breaks kept (the cell is quoted), other control characters as `\xHH`.
 * A carriage return with no line feed after it would send a terminal back to the start of the line,
 * so the text after it overwrites the cell on screen: it is written as `\x0D` text instead.
 */
export function toCsvSafeText(text: string): string {
  return text.replace(CONTROL_OR_REORDERING_BUT_LINES, visibleEscape).replace(/\r(?!\n)/g, '\\x0D');
}

/** JSON with every control and reordering character as a `\uXXXX` escape: the same data, nothing raw. */
export function toTerminalSafeJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    RAW_IN_JSON,
    (character) => `\\u${(character.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`,
  );
}

/** Rows as aligned columns, each cell passed through toTerminalCell; the first row is the header. */
export function formatTable(rawRows: readonly (readonly string[])[]): string {
  const rows = rawRows.map((row) => row.map(toTerminalCell));
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return `${rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}
