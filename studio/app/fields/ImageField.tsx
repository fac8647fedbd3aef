// A picture: chosen from the site's image library or uploaded (PNG, JPEG or WebP; the server checks
// the file itself and stores a web-ready copy), with its alt text, which is required.
import { css } from '@emotion/react';
import { useId, useState } from 'react';
import type { StoredImage } from '../api.ts';
import { useEditor } from '../editor-context.tsx';
import { color, ui } from '../ui.ts';
import { FieldMessages, GroupTitle, fieldId, type FieldProps } from './field-parts.tsx';
import { ImagePicker } from './ImagePicker.tsx';

export function ImageField({ field, value, path }: FieldProps) {
  const { setAt, issuesAt, Field: FieldEditor } = useEditor();
  const [picking, setPicking] = useState(false);
  const image = typeof value === 'object' && value !== null ? (value as { src?: string; alt?: string }) : undefined;
  const altField = field.fields?.find((f) => f.key === 'alt');
  const titleId = useId();
  // The button that changes the picture is its control: the messages about the picture describe it.
  const describedBy =
    [path, [...path, 'src']]
      .filter((at) => issuesAt(at).length > 0)
      .map((at) => `${fieldId(at)}-error`)
      .join(' ') || undefined;

  const choose = (picked: StoredImage) => {
    // The build reads width and height from the file: the YAML names the picture and its alt text.
    setAt(path, { ...(image ?? {}), src: picked.src, alt: image?.alt ?? '', width: undefined, height: undefined });
    setPicking(false);
  };

  return (
    <section css={ui.group} aria-labelledby={titleId}>
      <GroupTitle id={titleId} path={path} field={field} />
      {field.help && <p css={ui.help}>{field.help}</p>}
      <FieldMessages path={path} />
      <FieldMessages path={[...path, 'src']} />
      <div css={css({ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap', marginBottom: 8 })}>
        {image?.src ? (
          <img
            src={image.src}
            alt=""
            css={css({ width: 120, height: 80, objectFit: 'cover', borderRadius: 6, border: `1px solid ${color.border}` })}
          />
        ) : (
          <span css={ui.help}>No picture chosen.</span>
        )}
        <button
          type="button"
          id={fieldId([...path, 'src'])}
          css={ui.secondaryButton}
          aria-expanded={picking}
          aria-describedby={describedBy}
          onClick={() => setPicking(!picking)}
        >
          {image?.src ? 'Change picture' : 'Choose a picture'}
        </button>
        {image && !field.required && (
          <button type="button" css={ui.linkButton} onClick={() => setAt(path, undefined)}>
            Remove picture
          </button>
        )}
      </div>
      {picking && <ImagePicker onPick={choose} />}
      {image && altField && <FieldEditor field={{ ...altField, required: true }} value={image.alt} path={[...path, 'alt']} />}
    </section>
  );
}

/**
 * A text that holds a picture's address (an article's picture): chosen from the same library, shown
 * as a thumbnail, never typed. Its description is a field of its own beside it.
 */
export function PictureField({ field, value, path }: FieldProps) {
  const { setAt, issuesAt } = useEditor();
  const [picking, setPicking] = useState(false);
  const src = typeof value === 'string' && value !== '' ? value : undefined;
  const titleId = useId();
  const helpId = useId();
  const errorId = `${fieldId(path)}-error`;
  const describedBy = [issuesAt(path).length > 0 ? errorId : '', field.help ? helpId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <section css={ui.group} aria-labelledby={titleId}>
      <GroupTitle id={titleId} path={path} field={field} />
      {field.help && (
        <p id={helpId} css={ui.help}>
          {field.help}
        </p>
      )}
      <FieldMessages path={path} />
      <div css={css({ display: 'flex', gap: 12, alignItems: 'center', flexWrap: 'wrap', marginBottom: 8 })}>
        {src ? (
          <img
            src={src}
            alt=""
            css={css({ width: 120, height: 80, objectFit: 'cover', borderRadius: 6, border: `1px solid ${color.border}` })}
          />
        ) : (
          <span css={ui.help}>No picture chosen.</span>
        )}
        <button
          type="button"
          id={fieldId(path)}
          css={ui.secondaryButton}
          aria-expanded={picking}
          aria-describedby={describedBy}
          onClick={() => setPicking(!picking)}
        >
          {src ? 'Change picture' : 'Choose a picture'}
        </button>
        {src && !field.required && (
          <button type="button" css={ui.linkButton} onClick={() => setAt(path, undefined)}>
            Remove picture
          </button>
        )}
      </div>
      {picking && (
        <ImagePicker
          onPick={(picked) => {
            setAt(path, picked.src);
            setPicking(false);
          }}
        />
      )}
    </section>
  );
}
