import type { FieldErrors, LeadFormId } from '../../lead/rules.ts';
import { FORM_ERROR_KEY, FORM_FIELD_LABELS } from '../../lead/rules.ts';
import { CALLBACK_FIELDS, CALLBACK_FIELD_LABEL } from '../../lead/callback-consent.ts';

// What a visitor sees when a form posted without JavaScript does not validate: a plain page that
// lists each field's message and links back to the form. Every piece of text is
// HTML-escaped here, where it is rendered.

// Fields that belong to no form's table: the form itself (an unknown `source`, an unreadable body).
const FORM_WIDE_LABEL = 'Form';

// Where each form lives (content/pages/*.yaml), for the link back when the Referer cannot be used.
export const FORM_PAGE_PATHS: Readonly<Record<LeadFormId, string>> = {
  home: '/',
  roi: '/calculator',
  contact: '/contact',
  landing: '/ai-transformation',
};

// The validation toast's wording for the simple and contact forms.
const HEADING = 'Please check the form fields and try again.';
const BACK_LINK_TEXT = 'Back to the form';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

export function labelFor(formId: LeadFormId | undefined, field: string): string {
  if (field === 'source' || field === FORM_ERROR_KEY) return FORM_WIDE_LABEL;
  const labels: Readonly<Record<string, string>> = formId === undefined ? FORM_FIELD_LABELS.home : FORM_FIELD_LABELS[formId];
  if (field === CALLBACK_FIELDS.version) return CALLBACK_FIELD_LABEL;
  return labels[field] ?? field;
}

/** The link back: the page the form was posted from when it is on this site, else the form's page. */
export function chooseBackHref(formId: LeadFormId | undefined, referer: string | undefined, host: string | undefined): string {
  if (referer !== undefined && host !== undefined && URL.canParse(referer)) {
    const url = new URL(referer);
    const path = `${url.pathname}${url.search}`;
    if (url.host === host && (url.protocol === 'http:' || url.protocol === 'https:') && isSameOriginPath(path)) return path;
  }
  return formId === undefined ? '/' : FORM_PAGE_PATHS[formId];
}

/** A path a link can use without leaving the site: `//host/…` and `/\\host/…` are other sites to a browser. */
function isSameOriginPath(path: string): boolean {
  return path.startsWith('/') && path[1] !== '/' && path[1] !== '\\';
}

export function renderValidationErrorPage(formId: LeadFormId | undefined, fields: FieldErrors, backHref: string): string {
  const items = Object.entries(fields).map(
    ([field, message]) => `<li><strong>${escapeHtml(labelFor(formId, field))}:</strong> ${escapeHtml(message)}</li>`,
  );
  return renderNoticePage({ title: 'Please check the form', heading: HEADING, itemsHtml: items, backHref });
}

/** The same page with one sentence and no list (e.g. the server-side rate limit). */
export function renderMessagePage(title: string, message: string, backHref: string): string {
  return renderNoticePage({ title, heading: message, itemsHtml: [], backHref });
}

function renderNoticePage({
  title,
  heading,
  itemsHtml,
  backHref,
}: {
  title: string;
  heading: string;
  itemsHtml: string[];
  backHref: string;
}): string {
  const list = itemsHtml.length === 0 ? '' : `<ul>\n        ${itemsHtml.join('\n        ')}\n      </ul>\n      `;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="robots" content="noindex">
    <title>${escapeHtml(title)}</title>
    <style>
      body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: #1f2937; background: #f8fafc; }
      main { max-width: 36rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 0.75rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.12); }
      h1 { font-size: 1.375rem; margin: 0 0 1rem; }
      ul { padding-left: 1.25rem; margin: 0 0 1.5rem; }
      li { margin: 0.25rem 0; color: #b91c1c; }
      strong { color: #1f2937; }
      a { display: inline-block; padding: 0.625rem 1.25rem; border-radius: 0.5rem; background: #1d4ed8; color: #fff; text-decoration: none; font-weight: 600; }
      a:focus-visible { outline: 3px solid #93c5fd; outline-offset: 2px; }
    </style>
  </head>
  <body>
    <main>
      <h1>${escapeHtml(heading)}</h1>
      ${list}<a href="${escapeHtml(backHref)}">${escapeHtml(BACK_LINK_TEXT)}</a>
    </main>
  </body>
</html>
`;
}
