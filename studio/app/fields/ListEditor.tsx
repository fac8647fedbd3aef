// Lists (questions, cards, buttons) and a page's blocks: add, remove, and reorder with buttons that
// work with the mouse and the keyboard. Blocks get a palette of every block type the schemas define.
import { css } from '@emotion/react';
import { useRef, useState } from 'react';
import { emptyValue, startingBlock } from './form-model.ts';
import { useEditor } from '../editor-context.tsx';
import { itemName } from './item-name.ts';
import { ListItem } from './ListItem.tsx';
import { color, ui } from '../ui.ts';
import { FieldMessages, GroupTitle, fieldId, type FieldProps } from './field-parts.tsx';

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
