// Lists (questions, cards, buttons) and a page's blocks: add, remove, and reorder with buttons that
// work with the mouse and the keyboard. Blocks get a palette of every block type the schemas define.
import { css } from '@emotion/react';
import { useRef, useState } from 'react';
import type { Field } from './form-model.ts';
import { blockTypeOf, emptyValue, startingBlock } from './form-model.ts';
import { useEditor, type DataPath } from '../editor-context.tsx';
import { color, ui } from '../ui.ts';
import { FieldMessages, GroupTitle, fieldId, type FieldProps } from './field-parts.tsx';
import { isRecord } from '../../../content-model/values.ts';

export function ListEditor({ field, value, path }: FieldProps) {
  const { setAt, move, model, openBlock, setOpenBlock, focusBlock } = useEditor();
  const items = Array.isArray(value) ? value : [];
  const isBlocks = field.kind === 'blocks';
  const [paletteOpen, setPaletteOpen] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const listRef = useRef<HTMLOListElement>(null);
  const atMax = field.constraints?.maxItems !== undefined && items.length >= field.constraints.maxItems;

  const focusItem = (index: number) => {
    // After a move or an addition, keyboard focus follows the item.
    requestAnimationFrame(() => listRef.current?.querySelector<HTMLElement>(`[data-item="${index}"] [data-item-heading]`)?.focus());
  };
  const add = (item: unknown) => {
    setAt(path, [...items, item]);
    setAnnouncement(`${itemName(field)} ${items.length + 1} added.`);
    if (isBlocks) {
      // A new block is opened to be filled in, and the preview shows where it landed.
      setOpenBlock(items.length);
      focusBlock(items.length);
    }
    focusItem(items.length);
  };

  return (
    <section css={ui.group} aria-labelledby={`${fieldId(path)}-title`}>
      <GroupTitle id={`${fieldId(path)}-title`} path={path} field={field} />
      {field.help && <p css={ui.help}>{field.help}</p>}
      <FieldMessages path={path} />
      <div aria-live="polite" css={ui.visuallyHidden}>
        {announcement}
      </div>
      <ol ref={listRef} css={css({ listStyle: 'none', padding: 0, margin: '8px 0', display: 'grid', gap: 8 })}>
        {items.map((item, index) => (
          <ListItem
            key={index}
            field={field}
            item={item}
            index={index}
            count={items.length}
            path={[...path, index]}
            onMove={(offset) => {
              move([...path, index], offset);
              // The open block stays open as it moves.
              if (isBlocks && openBlock === index) setOpenBlock(index + offset);
              else if (isBlocks && openBlock === index + offset) setOpenBlock(index);
              setAnnouncement(`${itemName(field)} moved to position ${index + offset + 1} of ${items.length}.`);
              focusItem(index + offset);
            }}
            onRemove={() => {
              setAt(
                path,
                items.filter((_, i) => i !== index),
              );
              setAnnouncement(`${itemName(field)} ${index + 1} removed.`);
            }}
          />
        ))}
      </ol>
      {isBlocks ? (
        <>
          <button type="button" css={ui.secondaryButton} aria-expanded={paletteOpen} onClick={() => setPaletteOpen(!paletteOpen)}>
            Add a block
          </button>
          {paletteOpen && (
            <ul
              aria-label="Block types"
              css={css({
                listStyle: 'none',
                padding: 0,
                margin: '8px 0',
                display: 'grid',
                gap: 6,
                gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))',
              })}
            >
              {model.blocks.map((block) => (
                <li key={block.type}>
                  <button
                    type="button"
                    css={[ui.iconButton, css({ width: '100%', textAlign: 'left', padding: 10, display: 'grid', gap: 2 })]}
                    onClick={() => {
                      setPaletteOpen(false);
                      add(startingBlock(model, block.type));
                    }}
                  >
                    <strong>{block.title}</strong>
                    <span css={css({ fontSize: 13, color: color.mutedText })}>{block.description}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <button type="button" css={ui.secondaryButton} disabled={atMax} onClick={() => field.item && add(emptyValue(field.item))}>
          Add {itemName(field).toLowerCase()}
        </button>
      )}
    </section>
  );
}

function ListItem({
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

function itemName(field: Field): string {
  if (field.kind === 'blocks') return 'Block';
  const label = field.label.replace(/ies$/, 'y').replace(/s$/, '');
  return label || 'Item';
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
