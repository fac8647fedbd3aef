// Parses YAML while keeping positions, so every problem can point at file:line:column.
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';

export type YamlSource = {
  file: string;
  data: unknown;
  /** Position of the value at `path` (or of its closest existing parent). */
  positionOf(path: readonly (string | number)[], at?: 'key' | 'value'): { line: number; column: number };
  /** Syntax problems, already located. */
  syntaxErrors: { line: number; column: number; message: string }[];
};

export function parseYamlSource(file: string, text: string, lineOffset = 0): YamlSource {
  const lineCounter = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const locate = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line + lineOffset, column: pos.col };
  };
  const syntaxErrors = doc.errors.map((e) => ({ ...locate(e.pos[0]), message: plainYamlError(e.code, e.message) }));
  let data: unknown;
  if (!syntaxErrors.length) {
    try {
      data = doc.toJS();
    } catch (error) {
      // yaml stops expanding anchors (`&a`, `*a`) once they would repeat past 100 times, as a small
      // file repeating lists of lists could otherwise grow to millions of values and stall the server.
      if (!(error instanceof ReferenceError)) throw error;
      syntaxErrors.push({ ...locate(firstAlias(doc)), message: TOO_MANY_ALIASES });
    }
  }
  return {
    file,
    data,
    syntaxErrors,
    positionOf(path, at = 'value') {
      let node: unknown = doc.contents;
      let keyNode: unknown;
      for (const segment of path) {
        const next = childOf(node, segment);
        if (!next) break;
        keyNode = next.key;
        node = next.value;
      }
      const target = (at === 'key' && keyNode ? keyNode : node) as Node | undefined;
      return locate(target?.range?.[0] ?? 0);
    },
  };
}

/** Said of a file whose anchors would repeat past yaml's limit (a "billion laughs"). */
export const TOO_MANY_ALIASES =
  'this file repeats anchors (&name / *name) too many times: write each part out in full instead of repeating it with *name.';

/** Where the first `*name` of the document starts. */
function firstAlias(doc: Document): number {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}

function childOf(node: unknown, segment: string | number): { key: unknown; value: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === segment);
    return pair ? { key: pair.key, value: pair.value ?? pair.key } : undefined;
  }
  if (isSeq(node) && typeof segment === 'number') {
    const item = node.items[segment];
    return item ? { key: item, value: item } : undefined;
  }
  return undefined;
}

const YAML_ERROR_SENTENCES: Record<string, string> = {
  DUPLICATE_KEY: 'the same property appears twice',
  BAD_INDENT: 'the indentation is off: line the property up with the ones above it',
  MISSING_CHAR: 'a character is missing (often a closing quote or bracket)',
  MULTILINE_IMPLICIT_KEY: 'a property name runs over two lines: is a ":" or a quote missing?',
  BLOCK_AS_IMPLICIT_KEY: 'a property name runs over two lines: is a ":" or a quote missing?',
  TAB_AS_INDENT: 'use spaces, not tabs, to indent',
  UNEXPECTED_TOKEN: 'something here is not valid YAML',
};

function plainYamlError(code: string, message: string): string {
  const sentence = YAML_ERROR_SENTENCES[code];
  return sentence ? `${sentence} (YAML: ${message.split('\n')[0]})` : `this is not valid YAML: ${message.split('\n')[0]}`;
}
