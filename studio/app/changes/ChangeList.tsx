// One file's change as a list in the form's words (field-changes.ts): each place as the form names
// it, texts before and after with the words that went struck through and those that came underlined
// (and said in words to a screen reader, never by colour alone), blocks added, removed or moved by
// name, pictures as thumbnails with their descriptions. The file's lines (Diff) are one click away,
// behind "Show the file’s lines", for whoever wants them; they are all there is when the change
// cannot be told in the form's words (the forms are still loading, or a text cannot be read).
import { css } from '@emotion/react';
import { useMemo, type ReactNode } from 'react';
import { contentFileOf } from '../../../content-model/kinds.ts';
import type { Changes } from '../api.ts';
import { Diff } from '../publish/Diff.tsx';
import { color, ui } from '../ui.ts';
import { describeChanges, type FieldChange, type Picture, type WordPart } from './field-changes.ts';
import { useFormModel } from './form-model-context.ts';

/** A kept run of words longer than this shows only its ends, so the change itself stays in sight. */
const LONG_RUN = 160;

export type ChangedFile = {
  path: string;
  change: 'added' | 'changed' | 'deleted';
  hunks: Changes['files'][number]['hunks'];
  before: unknown;
  after: unknown;
};

export function ChangeList({
  file,
  name,
  lineLabels,
}: {
  file: ChangedFile;
  /** The page's name, put before each place where the screen lists several files ("Home › Hero › Heading"). */
  name?: string;
  /** What a screen reader says before a line of the file that goes or comes. */
  lineLabels?: { removed: string; added: string };
}) {
  const model = useFormModel();
  const kind = contentFileOf(file.path)?.kind;
  const { change, before, after } = file;
  const changes = useMemo(() => {
    if (!model || !kind || change === 'deleted') return null;
    if (after === null || (change === 'changed' && before === null)) return null;
    return describeChanges(model, kind, before, after, name);
  }, [model, kind, change, before, after, name]);

  return (
    <div>
      {file.change === 'deleted' ? (
        <p css={css({ margin: '4px 0' })}>{name ? `${name} is deleted` : 'Deleted'}, with everything it held.</p>
      ) : changes?.length === 0 ? (
        <p css={css({ margin: '4px 0' })}>Nothing in it changed.</p>
      ) : changes === null ? (
        <p css={ui.help}>{model ? 'This change can be shown only as the file’s lines.' : 'Reading the forms…'}</p>
      ) : (
        <ul css={css({ listStyle: 'none', padding: 0, margin: '4px 0', display: 'grid', gap: 10 })}>
          {changes.map((change, index) => (
            <li key={index} css={css({ borderLeft: `3px solid ${color.border}`, paddingLeft: 10 })}>
              <ChangeItem change={change} />
            </li>
          ))}
        </ul>
      )}
      {file.hunks.length > 0 && (
        <details open={changes === null && file.change !== 'deleted' && Boolean(model)} css={css({ marginTop: 6 })}>
          <summary css={summaryStyle}>Show the file’s lines</summary>
          <p css={[ui.help, css({ margin: '4px 0' })]}>Lines starting with − go, lines starting with + come.</p>
          <Diff hunks={file.hunks} {...(lineLabels ? { labels: lineLabels } : {})} />
        </details>
      )}
    </div>
  );
}

/** The disclosure of a file's lines: a link-coloured line, with the studio's focus ring. */
export const summaryStyle = css({
  cursor: 'pointer',
  color: color.accentDark,
  padding: '4px 0',
  width: 'fit-content',
  '&:focus-visible': { outline: `3px solid ${color.accent}`, outlineOffset: 2 },
});

function ChangeItem({ change }: { change: FieldChange }) {
  const place = change.place ? <strong css={css({ display: 'block' })}>{change.place}</strong> : null;
  switch (change.kind) {
    case 'text':
      return (
        <>
          {place}
          <Row label="Before">
            {change.before === '' ? <Empty /> : <Words parts={change.words.filter((part) => part.kind !== 'added')} />}
          </Row>
          <Row label="After">
            {change.after === '' ? <Empty /> : <Words parts={change.words.filter((part) => part.kind !== 'removed')} />}
          </Row>
        </>
      );
    case 'value':
      return (
        <>
          {place}
          <Row label="Before">
            <Words parts={[{ kind: 'removed', text: change.before }]} />
          </Row>
          <Row label="After">
            <Words parts={[{ kind: 'added', text: change.after }]} />
          </Row>
        </>
      );
    case 'picture':
      return (
        <>
          {place}
          <div css={css({ display: 'flex', gap: 16, flexWrap: 'wrap', marginTop: 4 })}>
            <PictureCard label="Before" picture={change.before} />
            <PictureCard label="After" picture={change.after} />
          </div>
        </>
      );
    case 'added':
    case 'removed':
      return (
        <>
          {place}
          <span>
            <span css={[ui.badge, change.kind === 'removed' && css({ background: color.dangerTint, color: color.dangerInk })]}>
              {change.kind === 'added' ? 'Added' : 'Removed'}
            </span>{' '}
            {change.kind === 'added' ? <ins css={addedStyle}>{change.what}</ins> : <del css={removedStyle}>{change.what}</del>}
            {change.summary && <span css={css({ color: color.mutedText })}>: “{change.summary}”</span>}
          </span>
        </>
      );
    case 'moved':
      return (
        <>
          {place}
          <span>
            <span css={ui.badge}>Moved</span> {change.what}, from place {change.from} to place {change.to}
          </span>
        </>
      );
    case 'unshown':
      return (
        <>
          {place}
          <span>Something the form does not show changed: the file’s lines say what.</span>
        </>
      );
  }
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div css={css({ display: 'grid', gridTemplateColumns: '4.5em minmax(0, 1fr)', gap: 6, alignItems: 'baseline' })}>
      <span css={css({ color: color.mutedText, fontSize: 14 })}>{label}</span>
      <span css={css({ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' })}>{children}</span>
    </div>
  );
}

function Empty() {
  return <em css={css({ color: color.mutedText })}>empty</em>;
}

const removedStyle = css({ background: color.removed, color: color.text, textDecorationThickness: 2 });
const addedStyle = css({ background: color.added, color: color.text, textDecoration: 'underline', textDecorationThickness: 2 });

/** Words that went in <del>, words that came in <ins>, each said as such to a screen reader; long kept runs shortened. */
function Words({ parts }: { parts: WordPart[] }) {
  return (
    <>
      {parts.map((part, index) => {
        if (part.kind === 'same') return <span key={index}>{shortened(part.text, index === 0, index === parts.length - 1)}</span>;
        const Tag = part.kind === 'removed' ? 'del' : 'ins';
        return (
          <Tag key={index} css={part.kind === 'removed' ? removedStyle : addedStyle}>
            <span css={ui.visuallyHidden}>{part.kind === 'removed' ? ' [removed: ' : ' [added: '}</span>
            {part.text}
            <span css={ui.visuallyHidden}>] </span>
          </Tag>
        );
      })}
    </>
  );
}

/** A long kept run keeps the words next to the change: its end when it comes first, its start when it comes last, else both. */
function shortened(text: string, first: boolean, last: boolean): string {
  if (text.length <= LONG_RUN) return text;
  const keep = 60;
  if (first && last) return text;
  if (first) return `…${text.slice(-keep)}`;
  if (last) return `${text.slice(0, keep)}…`;
  return `${text.slice(0, keep)} … ${text.slice(-keep)}`;
}

function PictureCard({ label, picture }: { label: string; picture: Picture | null }) {
  return (
    <figure css={css({ margin: 0, width: 160 })}>
      {picture?.thumbnail && (
        <img
          src={picture.thumbnail}
          alt=""
          loading="lazy"
          css={css({ display: 'block', width: 160, height: 100, objectFit: 'cover', border: `1px solid ${color.border}`, borderRadius: 6 })}
        />
      )}
      <figcaption css={css({ fontSize: 14, marginTop: 4 })}>
        <span css={css({ color: color.mutedText })}>{label}: </span>
        {picture === null ? 'no picture' : picture.description ? `“${picture.description}”` : 'no description'}
      </figcaption>
    </figure>
  );
}
