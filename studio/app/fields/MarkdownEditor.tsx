// Markdown text with a small toolbar for what the site's Markdown supports (bold, italic, links,
// bullet lists), so nobody has to remember the syntax. The text stays plain Markdown in the YAML.
import { css } from '@emotion/react';
import { useRef } from 'react';
import { font, ui } from '../ui.ts';

type Props = {
  id: string;
  value: string;
  onChange: (value: string) => void;
  'aria-describedby'?: string | undefined;
  'aria-invalid'?: boolean | undefined;
  'aria-required'?: boolean | undefined;
};

const ACTIONS = [
  { label: 'Bold', show: 'B', before: '**', after: '**', placeholder: 'bold text' },
  { label: 'Italic', show: 'I', before: '*', after: '*', placeholder: 'italic text' },
  { label: 'Link', show: 'Link', before: '[', after: '](/contact)', placeholder: 'link text' },
  { label: 'Bullet list', show: '• List', before: '\n- ', after: '', placeholder: 'list item' },
] as const;

export function MarkdownEditor({ value, onChange, ...attributes }: Props) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const apply = (action: (typeof ACTIONS)[number]) => {
    const element = textarea.current;
    if (!element) return;
    const { selectionStart: start, selectionEnd: end } = element;
    const selected = value.slice(start, end) || action.placeholder;
    const next = `${value.slice(0, start)}${action.before}${selected}${action.after}${value.slice(end)}`;
    onChange(next);
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(start + action.before.length, start + action.before.length + selected.length);
    });
  };
  return (
    <div>
      <div role="toolbar" aria-label="Formatting" aria-controls={attributes.id} css={css({ display: 'flex', gap: 4, marginBottom: 4 })}>
        {ACTIONS.map((action) => (
          <button key={action.label} type="button" css={ui.iconButton} aria-label={action.label} onClick={() => apply(action)}>
            {action.show}
          </button>
        ))}
      </div>
      <textarea
        ref={textarea}
        css={[ui.input, ui.textarea, css({ fontFamily: font.mono, fontSize: 14, minHeight: 140 })]}
        {...attributes}
        rows={8}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}
