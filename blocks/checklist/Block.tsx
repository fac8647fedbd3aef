import { css, useTheme } from '@emotion/react';
import type { ChecklistBlock } from '../../generated/content-types.ts';
import { CheckMark } from '../../ui/CheckMark.tsx';
import { Section } from '../../ui/Section.tsx';
import { tonePalette, type TonePalette } from '../../ui/tone-palette.ts';
import { formatUsd, hasValues, sumValuesUsd } from './value-total.ts';

type Item = ChecklistBlock['items'][number];

/** The schema's default for `totalLabel`. */
const DEFAULT_TOTAL_LABEL = 'Total Value';

export default function Checklist({
  id,
  eyebrow,
  heading,
  intro,
  tone,
  columns = 1,
  items,
  totalLabel = DEFAULT_TOTAL_LABEL,
  note,
}: ChecklistBlock) {
  const theme = useTheme();
  const palette = tonePalette(theme, tone);
  const valued = hasValues(items);
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone} narrow={valued || columns === 1}>
      {valued ? (
        <ValueList items={items} totalLabel={totalLabel} palette={palette} />
      ) : (
        <PointList items={items} columns={columns} palette={palette} />
      )}
      {note ? (
        <p
          css={css({
            margin: `${theme.space[6]} auto 0`,
            maxWidth: theme.width.text,
            textAlign: 'center',
            fontSize: theme.fontSize.sm,
            lineHeight: 1.6,
            color: palette.subtle,
          })}
        >
          {note}
        </p>
      ) : null}
    </Section>
  );
}

const listReset = css({ listStyle: 'none', margin: 0, padding: 0 });

function ItemText({ item, palette }: { item: Item; palette: TonePalette }) {
  const theme = useTheme();
  return (
    <span css={css({ display: 'flex', flexDirection: 'column', gap: theme.space[1], minWidth: 0 })}>
      <span css={css({ fontSize: theme.fontSize.md, fontWeight: 600, lineHeight: 1.45, color: palette.heading })}>{item.text}</span>
      {item.detail ? <span css={css({ fontSize: theme.fontSize.sm, lineHeight: 1.6, color: palette.body })}>{item.detail}</span> : null}
    </span>
  );
}

function PointList({ items, columns, palette }: { items: Item[]; columns: 1 | 2; palette: TonePalette }) {
  const theme = useTheme();
  return (
    <ul
      css={[
        listReset,
        css({
          display: 'grid',
          gap: theme.space[4],
          gridTemplateColumns: 'minmax(0, 1fr)',
          [theme.mq.md]: columns === 2 ? { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))', columnGap: theme.space[5] } : {},
        }),
      ]}
    >
      {items.map((item) => (
        <li
          key={item.text}
          css={css({
            display: 'flex',
            alignItems: 'flex-start',
            gap: theme.space[4],
            padding: theme.space[5],
            borderRadius: theme.radius.md,
            background: palette.card,
            border: `1px solid ${palette.cardBorder}`,
            boxShadow: palette.cardShadow,
          })}
        >
          <CheckMark palette={palette} />
          <ItemText item={item} palette={palette} />
        </li>
      ))}
    </ul>
  );
}

/** Points with dollar values: one column, values right-aligned, and the computed total underneath. */
function ValueList({ items, totalLabel, palette }: { items: Item[]; totalLabel: string; palette: TonePalette }) {
  const theme = useTheme();
  const amount = css({
    flex: 'none',
    marginInlineStart: 'auto',
    fontWeight: 700,
    fontVariantNumeric: 'tabular-nums',
    whiteSpace: 'nowrap',
    color: palette.heading,
  });
  return (
    <div
      css={css({
        borderRadius: theme.radius.lg,
        background: palette.card,
        border: `1px solid ${palette.cardBorder}`,
        boxShadow: palette.cardShadow,
        overflow: 'hidden',
      })}
    >
      <ul css={[listReset, css({ paddingInline: theme.space[5], [theme.mq.md]: { paddingInline: theme.space[6] } })]}>
        {items.map((item) => (
          // Grid so the detail line can use the full width under the title and value on narrow screens.
          <li
            key={item.text}
            css={css({
              display: 'grid',
              gridTemplateColumns: 'auto minmax(0, 1fr) auto',
              columnGap: theme.space[4],
              rowGap: theme.space[1],
              alignItems: 'start',
              paddingBlock: theme.space[5],
              '& + &': { borderTop: `1px solid ${palette.rule}` },
            })}
          >
            <span css={css({ display: 'flex', gridRow: item.detail ? 'span 2' : undefined })}>
              <CheckMark palette={palette} />
            </span>
            <span
              css={css({ alignSelf: 'center', fontSize: theme.fontSize.md, fontWeight: 600, lineHeight: 1.45, color: palette.heading })}
            >
              {item.text}
            </span>{' '}
            {item.valueUsd !== undefined ? (
              <span css={[amount, css({ gridColumn: 3, alignSelf: 'center', fontSize: theme.fontSize.md, lineHeight: 1.45 })]}>
                {formatUsd(item.valueUsd)}
              </span>
            ) : null}{' '}
            {item.detail ? (
              <span
                css={css({
                  gridColumn: '2 / -1',
                  fontSize: theme.fontSize.sm,
                  lineHeight: 1.6,
                  color: palette.body,
                  [theme.mq.md]: { gridColumn: 2 },
                })}
              >
                {item.detail}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      <p
        css={css({
          display: 'flex',
          alignItems: 'baseline',
          gap: theme.space[4],
          margin: 0,
          padding: `${theme.space[5]} ${theme.space[5]}`,
          borderTop: `1px solid ${palette.rule}`,
          background: palette.accentSoft,
          [theme.mq.md]: { paddingInline: theme.space[6] },
        })}
      >
        <span css={css({ fontSize: theme.fontSize.md, fontWeight: 700, color: palette.heading })}>{totalLabel}</span>{' '}
        <span css={[amount, css({ fontSize: theme.fontSize.xl, fontWeight: 800, letterSpacing: '-0.02em', color: palette.accent })]}>
          {formatUsd(sumValuesUsd(items))}
        </span>
      </p>
    </div>
  );
}
