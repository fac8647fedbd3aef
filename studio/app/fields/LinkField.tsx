// Where a link goes, chosen the way a person thinks of it: the booking page, a page of this site
// (picked by its name from the site's pages), or another address typed in (a web address, an
// e-mail, a phone number, a page with a part of it). The file holds what the site reads: the word
// the content uses for the booking link, a page's address, or the address as typed.
import { css } from '@emotion/react';
import { useId, useState } from 'react';
import { BOOKING_HREF } from '../../../ui/link-target.ts';
import { useEditor, type LinkTarget } from '../editor-context.tsx';
import { ui } from '../ui.ts';
import { useControl } from './control-parts.tsx';
import { Messages, RequiredMark, type FieldProps } from './field-parts.tsx';

type Way = 'booking' | 'page' | 'other';

/** How a link's value reads: the booking word, exactly one of the site's page addresses, or anything else. */
export function wayOf(href: string, targets: readonly LinkTarget[]): Way {
  if (href === BOOKING_HREF) return 'booking';
  return targetOf(href, targets) ? 'page' : 'other';
}

function wayFits(way: Way, href: string, targets: readonly LinkTarget[]): boolean {
  if (way === 'booking') return href === BOOKING_HREF;
  if (way === 'page') return href === '' || targetOf(href, targets) !== undefined;
  return href !== BOOKING_HREF;
}

function targetOf(href: string, targets: readonly LinkTarget[]): LinkTarget | undefined {
  const address = href.length > 1 ? href.replace(/\/$/, '') : href;
  return targets.find((target) => target.address === address);
}

const OTHER_HELP =
  'A full web address ("https://…"), an e-mail address ("mailto:hello@example.com"), a phone number ("tel:+15125550147"), or a page of this site with a part of it ("/contact#contact-form").';

export function LinkField({ field, value, path }: FieldProps) {
  const { linkTargets = [] } = useEditor();
  const control = useControl(field, path);
  const href = typeof value === 'string' ? value : '';
  const [way, setWay] = useState<Way>(() => wayOf(href, linkTargets));
  // The value may change under the chooser (a discard, another tab's save): when the way chosen can
  // no longer show it, the chooser follows the value. Typing a page's address as another address stays so.
  if (!wayFits(way, href, linkTargets)) setWay(wayOf(href, linkTargets));
  const group = useId();
  const otherHelpId = useId();
  const legendId = useId();
  const pageTarget = targetOf(href, linkTargets);
  // Said at once while typing; once the build has its own message about the link, that one stands alone.
  const checkProblem = way === 'other' && control.messages.length === 0 ? addressProblem(href, field.constraints?.pattern) : undefined;

  const choose = (next: Way) => {
    setWay(next);
    if (next === 'booking') control.set(BOOKING_HREF);
    else if (next === 'page') control.set((pageTarget ?? linkTargets[0])?.address ?? '');
    else if (href === BOOKING_HREF) control.setText('');
  };

  const ways: { way: Way; label: string }[] = [
    { way: 'booking', label: 'Booking page' },
    ...(linkTargets.length > 0 || way === 'page' ? [{ way: 'page' as const, label: 'A page of this site' }] : []),
    { way: 'other', label: 'Another address' },
  ];
  // The control a mistake's "go to" lands on: the page list or the address box, else the chosen way.
  const { id, ...described } = control.attributes;

  return (
    <div css={ui.field}>
      <fieldset css={css({ border: 'none', margin: 0, padding: 0, minWidth: 0, display: 'grid', gap: 4 })} aria-labelledby={legendId}>
        <legend id={legendId} css={[ui.label, css({ padding: 0 })]}>
          {field.label}
          {field.required && <RequiredMark />}
        </legend>
        {field.help && (
          <p id={control.helpId} css={ui.help}>
            {field.help}
          </p>
        )}
        <div css={css({ display: 'flex', flexWrap: 'wrap', columnGap: 16, rowGap: 4 })}>
          {ways.map((option) => (
            <label key={option.way} css={css({ display: 'flex', gap: 6, alignItems: 'center', minHeight: 28 })}>
              <input
                type="radio"
                name={group}
                value={option.way}
                checked={way === option.way}
                onChange={() => choose(option.way)}
                {...(option.way === 'booking' && way === 'booking' ? control.attributes : {})}
              />
              {option.label}
            </label>
          ))}
        </div>
        {way === 'page' && (
          <div css={ui.field}>
            <label htmlFor={id} css={css({ fontWeight: 600, fontSize: 14 })}>
              Which page
            </label>
            <select
              css={ui.input}
              id={id}
              {...described}
              value={pageTarget?.address ?? ''}
              onChange={(event) => control.set(event.target.value)}
            >
              {!pageTarget && <option value="">Choose a page…</option>}
              <TargetOptions targets={linkTargets.filter((t) => t.kind === 'page')} />
              {linkTargets.some((t) => t.kind === 'article') && (
                <optgroup label="Articles">
                  <TargetOptions targets={linkTargets.filter((t) => t.kind === 'article')} />
                </optgroup>
              )}
            </select>
          </div>
        )}
        {way === 'other' && (
          <div css={ui.field}>
            <label htmlFor={id} css={css({ fontWeight: 600, fontSize: 14 })}>
              Address
            </label>
            <p id={otherHelpId} css={ui.help}>
              {OTHER_HELP}
            </p>
            <input
              css={ui.input}
              type="text"
              inputMode="url"
              id={id}
              {...described}
              aria-describedby={[checkProblem ? `${id}-check` : '', described['aria-describedby'] ?? '', otherHelpId]
                .filter(Boolean)
                .join(' ')}
              aria-invalid={described['aria-invalid'] ?? (checkProblem ? true : undefined)}
              value={href}
              onChange={(event) => control.setText(event.target.value.trim())}
            />
            {checkProblem && (
              <p id={`${id}-check`} css={ui.error}>
                {checkProblem}
              </p>
            )}
          </div>
        )}
      </fieldset>
      <Messages id={control.errorId} messages={control.messages} />
      <Messages id={control.warningId} messages={control.warnings} tone="warning" />
    </div>
  );
}

function TargetOptions({ targets }: { targets: readonly LinkTarget[] }) {
  return targets.map((target) => (
    <option key={target.address} value={target.address}>
      {target.name}
    </option>
  ));
}

/** What is wrong with a typed address, checked as the site checks it, in words; undefined when it is fine or still empty. */
function addressProblem(href: string, pattern: string | undefined): string | undefined {
  if (href === '' || pattern === undefined || new RegExp(pattern).test(href)) return undefined;
  return /\s/.test(href)
    ? 'An address has no spaces.'
    : 'This is not an address a link can go to: start it with "https://", "mailto:" or "tel:", or with "/" for a page of this site.';
}
