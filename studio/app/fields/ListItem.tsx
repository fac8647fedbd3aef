// One item of a list or one block of a page: its heading (a block's opens and closes it, and counts
// the build's messages inside it), the buttons that move it up and down and remove it, and its fields.
import { css } from '@emotion/react';
import { isRecord } from '../../../content-model/values.ts';
import { useEditor, type DataPath } from '../editor-context.tsx';
import { color, ui } from '../ui.ts';
import type { Field } from './form-model.ts';
import { blockTypeOf } from './form-model.ts';
import { itemName } from './item-name.ts';

export function ListItem({
  field,
  item,
  index,
  count,
  path,
  onMove,
  onRemove,
}: {
  field: Field;
  item: unknown;
  index: number;
  count: number;
  path: DataPath;
  onMove: (offset: number) => void;
  onRemove: () => void;
}) {
  const { model, focusBlock, openBlock, setOpenBlock, countIssuesUnder, Field: FieldEditor, Group: ObjectEditor } = useEditor();
  const isBlocks = field.kind === 'blocks';
  const blockType = isBlocks && isRecord(item) && typeof item.type === 'string' ? blockTypeOf(model, item.type) : undefined;
  const title = isBlocks
    ? `${index + 1}. ${blockType?.title ?? String((item as { type?: unknown })?.type ?? 'Block')}`
    : `${itemName(field)} ${index + 1}`;
  const summary = summarise(item);
  const open = isBlocks ? openBlock === index : true;
  const errorCount = countIssuesUnder(path);

  return (
    <li data-item={index} css={css({ border: `1px solid ${color.border}`, borderRadius: 8, background: color.panel, padding: 8 })}>
      <div css={css({ display: 'flex', gap: 6, alignItems: 'center', flexWrap: 'wrap' })}>
        {isBlocks ? (
          <button
            type="button"
            data-item-heading
            aria-expanded={open}
            css={[ui.linkButton, css({ fontWeight: 700, textDecoration: 'none', color: color.text, flex: '1 1 12rem', textAlign: 'left' })]}
            onClick={() => {
              setOpenBlock(open ? null : index);
              focusBlock(index);
            }}
          >
            {title}
            {summary && <span css={css({ fontWeight: 400, color: color.mutedText })}> — {summary}</span>}
            {errorCount > 0 && (
              <span css={[ui.badge, css({ background: color.dangerTint, color: color.dangerInk, marginLeft: 6 })]}>
                {errorCount === 1 ? '1 mistake' : `${errorCount} mistakes`}
              </span>
            )}
          </button>
        ) : (
          <span data-item-heading tabIndex={-1} css={css({ fontWeight: 700, flex: '1 1 8rem' })}>
            {title}
            {summary && <span css={css({ fontWeight: 400, color: color.mutedText })}> — {summary}</span>}
          </span>
        )}
        <button type="button" css={ui.iconButton} disabled={index === 0} onClick={() => onMove(-1)} aria-label={`Move ${title} up`}>
          ↑
        </button>
        <button
          type="button"
          css={ui.iconButton}
          disabled={index === count - 1}
          onClick={() => onMove(1)}
          aria-label={`Move ${title} down`}
        >
          ↓
        </button>
        <button type="button" css={ui.dangerButton} onClick={onRemove} aria-label={`Remove ${title}`}>
          Remove
        </button>
      </div>
      {open && (
        <div css={css({ marginTop: 8 })}>
          {isBlocks && blockType ? (
            <ObjectEditor
              field={{ key: '', label: blockType.title, required: true, kind: 'object', fields: blockType.fields }}
              value={item}
              path={path}
              bare
            />
          ) : field.item?.kind === 'object' ? (
            <ObjectEditor field={field.item} value={item} path={path} bare />
          ) : field.item ? (
            <FieldEditor field={{ ...field.item, label: `${itemName(field)} ${index + 1}` }} value={item} path={path} />
          ) : null}
        </div>
      )}
    </li>
  );
}

/** A few words that tell items apart: the heading, label, question or name. */
function summarise(item: unknown): string {
  if (typeof item === 'string') return item.slice(0, 60);
  if (!isRecord(item)) return '';
  for (const key of ['heading', 'title', 'question', 'label', 'name', 'value']) {
    const value = item[key];
    if (typeof value === 'string' && value.trim()) return value.length > 60 ? `${value.slice(0, 57)}…` : value;
  }
  return '';
}
