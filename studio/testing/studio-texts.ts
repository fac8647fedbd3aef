// Every text the studio can show a person, read from its source with the TypeScript compiler, for the
// test that checks them for the words of the files behind the studio (studio/app/testing/plain-words.ts).
//
// The browser app: the text between JSX tags, the attributes people read (labels, titles,
// placeholders, descriptions), the strings a JSX expression renders (both sides of a condition, a
// template's words with "…" for what it fills in, one value of an object picked by a key), and any
// other string written as a sentence (a capital, then words). The server: the sentences it answers
// with (`message`, `reason` and the like), the messages of the errors it throws to the person who
// asked, and what its functions named for messages return.
//
// Left out on purpose, so a finding is always a text someone reads: CSS (css(), styles in ui.ts),
// imports, keys of objects, what a value is compared with, test ids, class names and the arguments of
// calls other than an error's.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type StudioText = { file: string; line: number; text: string };

/** Attributes a person reads or hears. */
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'title',
  'placeholder',
  'alt',
  'label',
  'help',
  'hint',
  'message',
  'description',
  'heading',
  'summary',
  'confirmLabel',
  'cancelLabel',
  'actionLabel',
  'emptyText',
]);

/** Properties of the server's answers that hold a sentence for a person. */
const SENTENCE_PROPERTIES = new Set(['message', 'reason', 'detail', 'hint', 'error', 'summary', 'help']);

/** Functions whose calls only style or locate, never say anything. */
const SILENT_CALLS = new Set(['css', 'keyframes', 'fieldId', 'encodeURIComponent', 'querySelector', 'querySelectorAll', 'getElementById']);

/** Files of `dir` (recursively) whose names end with one of `extensions`, leaving out tests and test helpers. */
export function sourceFiles(dir: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing' && entry.name !== 'node_modules') found.push(...sourceFiles(full, extensions));
    } else if (extensions.some((extension) => entry.name.endsWith(extension)) && !/\.test\.tsx?$/.test(entry.name)) {
      found.push(full);
    }
  }
  return found.sort();
}

/** The texts a file of the studio's browser app can show. */
export function appTexts(file: string, root: string): StudioText[] {
  const source = parseFile(file);
  const texts: StudioText[] = [];
  const add = (node: ts.Node, text: string) => push(texts, source, node, text, root);
  const claimed = new Set<ts.Node>();
  const addRendered = (expression: ts.Expression) => {
    for (const { node, text } of renderedStrings(expression)) {
      claimed.add(node);
      add(node, text);
    }
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node)) return;
    if (ts.isCallExpression(node) && SILENT_CALLS.has(calleeName(node))) return;
    if (ts.isJsxText(node)) {
      const text = node.text.replace(/\s+/g, ' ').trim();
      if (/\p{L}/u.test(text)) add(node, text);
    } else if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(source);
      if (name === 'css' || name === 'className' || name.startsWith('data-') || name === 'id' || name === 'href' || name === 'key') return;
      if (READ_ATTRIBUTES.has(name) && node.initializer) {
        if (ts.isStringLiteral(node.initializer)) {
          claimed.add(node.initializer);
          add(node.initializer, node.initializer.text);
        } else if (ts.isJsxExpression(node.initializer) && node.initializer.expression) addRendered(node.initializer.expression);
      }
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      addRendered(node.expression);
    } else if (isStringNode(node) && !claimed.has(node) && looksLikeSentence(stringWords(node)) && !isKeyOrComparison(node)) {
      add(node, stringWords(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** The sentences a file of the studio's server can answer with. */
export function serverTexts(file: string, root: string): StudioText[] {
  const source = parseFile(file);
  const texts: StudioText[] = [];
  const addAll = (expression: ts.Expression) => {
    for (const { node, text } of renderedStrings(expression)) if (/\p{L}{2}/u.test(text)) push(texts, source, node, text, root);
  };
  const visit = (node: ts.Node, inMessageFunction: boolean): void => {
    if (ts.isImportDeclaration(node) || ts.isTypeNode(node)) return;
    let here = inMessageFunction;
    if ((ts.isFunctionDeclaration(node) || ts.isVariableDeclaration(node)) && node.name && ts.isIdentifier(node.name)) {
      const name = node.name.text;
      if (/(?:Message|Messages|Text|Refused|Words|Sentence|MESSAGES?|REASONS?|TEXTS?)$/.test(name)) here = true;
    }
    if (ts.isPropertyAssignment(node) && SENTENCE_PROPERTIES.has(propertyName(node.name))) addAll(node.initializer);
    else if (ts.isNewExpression(node) && /\w+Error$/.test(node.expression.getText(source)) && node.expression.getText(source) !== 'Error') {
      const [first] = node.arguments ?? [];
      if (first) addAll(first);
    } else if (
      here &&
      (ts.isReturnStatement(node) || ts.isArrowFunction(node) || ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node))
    ) {
      const value = ts.isReturnStatement(node)
        ? node.expression
        : ts.isArrowFunction(node)
          ? ts.isBlock(node.body)
            ? undefined
            : node.body
          : node.initializer;
      if (value)
        for (const { node: string, text } of renderedStrings(value)) if (looksLikeSentence(text)) push(texts, source, string, text, root);
    }
    ts.forEachChild(node, (child) => visit(child, here));
  };
  visit(source, false);
  return texts;
}

/** The strings an expression renders: literals, both branches of a condition, a template's words, an object's values picked by key. */
export function renderedStrings(expression: ts.Expression): { node: ts.Node; text: string }[] {
  if (ts.isTemplateExpression(expression))
    // A template's own words, and those of the texts it fills in (`${first ? `${first.file}: …` : '…'}`).
    return [
      { node: expression, text: stringWords(expression) },
      ...expression.templateSpans.flatMap((span) => renderedStrings(span.expression)),
    ];
  if (isStringNode(expression)) return [{ node: expression, text: stringWords(expression) }];
  if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression) || ts.isNonNullExpression(expression))
    return renderedStrings(expression.expression);
  if (ts.isConditionalExpression(expression)) return [...renderedStrings(expression.whenTrue), ...renderedStrings(expression.whenFalse)];
  if (ts.isBinaryExpression(expression)) {
    const operator = expression.operatorToken.kind;
    if (operator === ts.SyntaxKind.AmpersandAmpersandToken) return renderedStrings(expression.right);
    if (operator === ts.SyntaxKind.BarBarToken || operator === ts.SyntaxKind.QuestionQuestionToken || operator === ts.SyntaxKind.PlusToken)
      return [...renderedStrings(expression.left), ...renderedStrings(expression.right)];
    return [];
  }
  if (ts.isElementAccessExpression(expression) && ts.isObjectLiteralExpression(stripParentheses(expression.expression))) {
    const object = stripParentheses(expression.expression) as ts.ObjectLiteralExpression;
    return object.properties.flatMap((property) => (ts.isPropertyAssignment(property) ? renderedStrings(property.initializer) : []));
  }
  if (ts.isArrayLiteralExpression(expression)) return expression.elements.flatMap((element) => renderedStrings(element as ts.Expression));
  return [];
}

function stripParentheses(expression: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(expression) ? stripParentheses(expression.expression) : expression;
}

function isStringNode(node: ts.Node): node is ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression {
  return ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node);
}

/**
 * A string's words, with "…" where a template fills something in, and a file's path where it fills
 * in one (`${file.path}`): what a person would read there.
 */
function stringWords(node: ts.StringLiteral | ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression): string {
  if (!ts.isTemplateExpression(node)) return node.text;
  return (
    node.head.text +
    node.templateSpans.map((span) => `${FILE_PATH_VALUE.test(span.expression.getText()) ? FILLED_PATH : '…'}${span.literal.text}`).join('')
  );
}

/** An expression that is a file's path (`file.path`, `opened.file.path`, `relative`, `issue.file`). */
const FILE_PATH_VALUE = /^(?:[\w.!?]+\.)?(?:path|relative|absolute|filePath|file)$/;
const FILLED_PATH = 'content/pages/a-page.yaml';

/** A sentence a person reads: starts with a capital (or a filled-in word) and has at least two words. */
function looksLikeSentence(text: string): boolean {
  return /^(?:…\s?)?[A-Z][a-z']*,?\s+\S+/u.test(text) && /\p{Ll}{2}/u.test(text) && !/^[A-Z][A-Za-z]+(?:\.[A-Za-z]+)+\(/.test(text);
}

/** A string used as a key, compared with a value, or passed to a call: not a text on screen. */
function isKeyOrComparison(node: ts.Node): boolean {
  const parent = node.parent;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return true;
  if (ts.isElementAccessExpression(parent) && parent.argumentExpression === node) return true;
  if (ts.isBinaryExpression(parent) && /^(?:===|!==|==|!=|in)$/.test(parent.operatorToken.getText())) return true;
  if (ts.isCaseClause(parent) || ts.isLiteralTypeNode(parent)) return true;
  if (ts.isCallExpression(parent) && parent.arguments.includes(node as ts.Expression)) {
    // A sentence handed to a function that shows it (announce, setMessage, alert…) still counts.
    return !/^(?:set[A-Z]\w*|announce|say|alert|confirm|show\w*|notify|fail|refuse)$/.test(calleeName(parent));
  }
  return false;
}

function calleeName(call: ts.CallExpression): string {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
  return '';
}

function propertyName(name: ts.PropertyName): string {
  return ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : '';
}

function parseFile(file: string): ts.SourceFile {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, kind);
}

function push(texts: StudioText[], source: ts.SourceFile, node: ts.Node, text: string, root: string) {
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  texts.push({ file: path.relative(root, source.fileName).split(path.sep).join('/'), line: line + 1, text });
}
