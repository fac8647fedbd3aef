import { css, useTheme } from '@emotion/react';
import type { ComponentType } from 'react';
import type { CardGridBlock } from '../../generated/content-types.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { CheckMark } from '../../ui/CheckMark.tsx';
import { itemHeadingTag } from '../../ui/heading-level.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Section } from '../../ui/Section.tsx';
import { interactiveCard, tonePalette, type TonePalette } from '../../ui/tone-palette.ts';
import * as s from './styles.ts';

type Card = CardGridBlock['cards'][number];
type Variant = NonNullable<CardGridBlock['variant']>;
type CardProps = { card: Card; palette: TonePalette; titleTag: 'h2' | 'h3' };

export default function CardGrid({ id, eyebrow, heading, intro, tone, columns = 3, variant = 'feature', cards, note }: CardGridBlock) {
  const theme = useTheme();
  const palette = tonePalette(theme, tone);
  const titleTag = itemHeadingTag(Boolean(heading));
  const CardView = variant === 'badge' ? null : CARD_VIEWS[variant];
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      {CardView ? (
        <ul css={s.grid(theme, columns)}>
          {cards.map((card, index) => (
            <CardView key={`${index}-${card.title}`} card={card} palette={palette} titleTag={titleTag} />
          ))}
        </ul>
      ) : (
        <BadgeList cards={cards} columns={columns} palette={palette} />
      )}
      {note ? <p css={s.note(theme, palette)}>{note}</p> : null}
    </Section>
  );
}

function FeatureCard({ card, palette, titleTag: Title }: CardProps) {
  const theme = useTheme();
  return (
    <li css={[s.card(theme, palette), card.action && interactiveCard(theme, palette)]}>
      {card.icon ? (
        <span css={[s.iconChip(theme, palette), css({ marginBottom: theme.space[5] })]}>
          <Icon name={card.icon} />
        </span>
      ) : null}
      {card.badge ? (
        <p css={[s.pill(theme, palette), css({ alignSelf: 'flex-start', margin: `0 0 ${theme.space[3]}` })]}>{card.badge}</p>
      ) : null}
      <Title css={s.title(theme, palette, 'lg')}>{card.title}</Title>
      {card.meta ? <p css={s.meta(theme, palette)}>{card.meta}</p> : null}
      {card.value ? (
        <p css={[s.metricValue(theme, palette), css({ order: 0, margin: `${theme.space[3]} 0 0`, fontSize: theme.fontSize['2xl'] })]}>
          {card.value}
        </p>
      ) : null}
      <CardDetails card={card} palette={palette} />
    </li>
  );
}

function MetricCard({ card, palette, titleTag: Title }: CardProps) {
  const theme = useTheme();
  return (
    <li css={[s.card(theme, palette), s.metricCard, card.action && interactiveCard(theme, palette)]}>
      {card.icon ? (
        <span css={[s.iconChip(theme, palette), css({ order: -2, marginBottom: theme.space[4] })]}>
          <Icon name={card.icon} />
        </span>
      ) : null}
      {/* The title comes first for screen readers; the number is moved above it visually. */}
      <Title css={s.title(theme, palette, 'md')}>{card.title}</Title>
      {card.meta ? <p css={s.meta(theme, palette)}>{card.meta}</p> : null}
      {card.value ? <p css={s.metricValue(theme, palette)}>{card.value}</p> : null}
      <CardDetails card={card} palette={palette} />
    </li>
  );
}

function OfferCard({ card, palette, titleTag: Title }: CardProps) {
  const theme = useTheme();
  return (
    <li css={[s.card(theme, palette), css({ [theme.mq.md]: { padding: theme.space[7] } }), card.action && interactiveCard(theme, palette)]}>
      {card.badge || card.icon ? (
        <div
          css={css({
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'space-between',
            gap: theme.space[3],
            marginBottom: theme.space[5],
          })}
        >
          {card.badge ? <p css={[s.pill(theme, palette), css({ margin: 0 })]}>{card.badge}</p> : <span />}
          {card.icon ? (
            <span css={s.iconChip(theme, palette)}>
              <Icon name={card.icon} />
            </span>
          ) : null}
        </div>
      ) : null}
      <Title css={s.title(theme, palette, 'xl')}>{card.title}</Title>
      {card.meta ? <p css={s.meta(theme, palette)}>{card.meta}</p> : null}
      {card.value ? (
        <p css={[s.metricValue(theme, palette), css({ order: 0, margin: `${theme.space[4]} 0 0`, fontSize: theme.fontSize['2xl'] })]}>
          {card.value}
        </p>
      ) : null}
      <CardDetails card={card} palette={palette} fullWidthAction divided />
    </li>
  );
}

/** Text, bullet points and the button, shared by every card variant; the button always sits at the bottom. */
function CardDetails({
  card,
  palette,
  fullWidthAction = false,
  divided = false,
}: {
  card: Card;
  palette: TonePalette;
  fullWidthAction?: boolean;
  divided?: boolean;
}) {
  const theme = useTheme();
  return (
    <>
      {card.text ? <p css={s.text(theme, palette)}>{card.text}</p> : null}
      {card.items?.length ? (
        <ul
          css={[
            s.listReset,
            css({ display: 'grid', gap: theme.space[3], marginTop: theme.space[5] }),
            divided && css({ paddingTop: theme.space[5], borderTop: `1px solid ${palette.rule}` }),
          ]}
        >
          {card.items.map((item) => (
            <li
              key={item}
              css={css({
                display: 'flex',
                alignItems: 'flex-start',
                gap: theme.space[3],
                fontSize: theme.fontSize.sm,
                lineHeight: 1.6,
                color: palette.dark ? palette.body : theme.colors.text,
              })}
            >
              <CheckMark palette={palette} size="sm" />
              <span>{item}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {card.action ? (
        <div css={css({ marginTop: 'auto', paddingTop: theme.space[6] })}>
          <ActionButton action={card.action} onDark={palette.dark} fullWidth={fullWidthAction} />
        </div>
      ) : null}
    </>
  );
}

/**
 * Trust badges are short labels, not sections, so their titles are plain text rather than headings.
 * Title-only badges are pills that wrap centred; badges with a line of text become equal small tiles.
 */
function BadgeList({ cards, columns, palette }: { cards: Card[]; columns: NonNullable<CardGridBlock['columns']>; palette: TonePalette }) {
  const theme = useTheme();
  const tiles = cards.some((card) => card.text);
  const surface = css({ background: palette.card, border: `1px solid ${palette.cardBorder}`, boxShadow: palette.cardShadow });
  return (
    <ul
      css={[
        s.listReset,
        tiles
          ? css({
              display: 'grid',
              gap: theme.space[3],
              gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
              [theme.mq.lg]: { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: theme.space[4] },
            })
          : css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: theme.space[3] }),
      ]}
    >
      {cards.map((card, index) => (
        <li
          key={`${index}-${card.title}`}
          css={[
            surface,
            tiles
              ? css({
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  textAlign: 'center',
                  gap: theme.space[1],
                  padding: theme.space[4],
                  borderRadius: theme.radius.lg,
                  [theme.mq.md]: { padding: theme.space[5] },
                })
              : css({
                  display: 'inline-flex',
                  alignItems: 'center',
                  gap: theme.space[2],
                  padding: `${theme.space[2]} ${theme.space[4]}`,
                  borderRadius: theme.radius.pill,
                }),
          ]}
        >
          {card.icon ? (
            <span css={css({ flex: 'none', display: 'inline-flex', color: palette.accent, marginBottom: tiles ? theme.space[2] : 0 })}>
              <Icon name={card.icon} size={tiles ? 24 : 18} />
            </span>
          ) : null}
          <span css={css({ fontSize: theme.fontSize.sm, fontWeight: 700, lineHeight: 1.35, color: palette.heading })}>{card.title}</span>
          {card.text ? <span css={css({ fontSize: theme.fontSize.xs, lineHeight: 1.5, color: palette.subtle })}>{card.text}</span> : null}
        </li>
      ))}
    </ul>
  );
}

const CARD_VIEWS: Record<Exclude<Variant, 'badge'>, ComponentType<CardProps>> = {
  feature: FeatureCard,
  metric: MetricCard,
  offer: OfferCard,
};
