import { css, useTheme } from '@emotion/react';
import type { PricingTableBlock } from '../../generated/content-types.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { cardGridStyle, cardStyle } from '../../ui/card.ts';
import { Icon } from '../../ui/Icon.tsx';
import { isDarkTone, Section } from '../../ui/Section.tsx';
import { alpha } from '../../ui/alpha.ts';
import { formatPriceUsd } from './format-price.ts';

type Plan = PricingTableBlock['plans'][number];

/** Schema default of `period`. */
const DEFAULT_PERIOD = '/month';

/** Rows of a plan card: name and description, price, features, button. */
const PLAN_ROWS = 4;

export default function PricingTable({ id, eyebrow, heading, intro, tone, plans, footnote }: PricingTableBlock) {
  const theme = useTheme();
  const dark = isDarkTone(tone);
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      {/* Four side by side on desktop, 2×2 on tablets, stacked on phones; room on top for the badges. */}
      <ul
        role="list"
        css={[
          cardGridStyle(theme, plans.length),
          css({ paddingTop: theme.space[3], rowGap: theme.space[6], [theme.mq.lg]: { columnGap: theme.space[5] } }),
        ]}
      >
        {plans.map((plan) => (
          <PlanCard key={plan.name} plan={plan} headingLevel={heading ? 'h3' : 'h2'} />
        ))}
      </ul>
      {footnote ? (
        <p
          css={css({
            margin: `${theme.space[6]} auto 0`,
            maxWidth: theme.width.text,
            textAlign: 'center',
            fontSize: theme.fontSize.sm,
            color: dark ? theme.colors.onDark : theme.colors.muted,
          })}
        >
          {footnote}
        </p>
      ) : null}
    </Section>
  );
}

function PlanCard({ plan, headingLevel: PlanHeading }: { plan: Plan; headingLevel: 'h2' | 'h3' }) {
  const theme = useTheme();
  const { name, priceUsd, pricePrefix, period = DEFAULT_PERIOD, description, badge, popular = false, features, action } = plan;
  const accent = popular ? theme.colors.primary : theme.colors.success;
  return (
    // Each card spans four rows of the list's grid (subgrid), so names, prices, features and buttons line up across cards.
    <li
      css={[
        cardStyle(theme),
        css({
          display: 'grid',
          gridRow: `span ${PLAN_ROWS}`,
          gridTemplateRows: 'subgrid',
          rowGap: theme.space[5],
          padding: `${theme.space[6]} ${theme.space[5]}`,
          [theme.mq.md]: { paddingInline: theme.space[6] },
          [theme.mq.lg]: { paddingInline: theme.space[5] },
        }),
        popular &&
          css({
            borderColor: theme.colors.primary,
            boxShadow: `0 0 0 1px ${theme.colors.primary}, ${theme.shadow.raised}`,
            background: `linear-gradient(180deg, ${alpha(theme.colors.primary, 7)}, transparent 40%), ${theme.colors.white}`,
          }),
      ]}
    >
      <div css={css({ display: 'grid', alignContent: 'start', gap: theme.space[2] })}>
        <PlanHeading
          css={css({
            margin: 0,
            fontSize: theme.fontSize.lg,
            fontWeight: 700,
            color: popular ? theme.colors.primaryDark : theme.colors.text,
          })}
        >
          {name}
        </PlanHeading>
        <p css={css({ margin: 0, fontSize: theme.fontSize.sm, lineHeight: 1.6, color: theme.colors.muted })}>{description}</p>
        {/* After the name in reading order; drawn on the card's top edge. */}
        {badge ? (
          <p
            css={css({
              position: 'absolute',
              top: 0,
              left: '50%',
              transform: 'translate(-50%, -50%)',
              margin: 0,
              padding: `${theme.space[1]} ${theme.space[4]}`,
              borderRadius: theme.radius.pill,
              whiteSpace: 'nowrap',
              fontSize: theme.fontSize.xs,
              fontWeight: 700,
              letterSpacing: '0.06em',
              textTransform: 'uppercase',
              color: popular ? theme.colors.white : theme.colors.primaryDark,
              background: popular
                ? `linear-gradient(135deg, ${theme.colors.primaryDark}, ${theme.colors.primary})`
                : alpha(theme.colors.primary, 12),
              boxShadow: popular ? theme.shadow.card : 'none',
            })}
          >
            {badge}
          </p>
        ) : null}
      </div>
      {/* Prices sit on the bottom of their row, so a plan with a prefix line ("from") keeps the same price line. */}
      <p
        css={css({
          alignSelf: 'end',
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'baseline',
          columnGap: theme.space[2],
          margin: 0,
          paddingBottom: theme.space[5],
          borderBottom: `1px solid ${theme.colors.border}`,
        })}
      >
        {pricePrefix ? (
          <span css={css({ fontSize: theme.fontSize.sm, fontWeight: 600, color: theme.colors.muted })}>{pricePrefix}</span>
        ) : null}
        <span css={css({ whiteSpace: 'nowrap' })}>
          <span
            css={css({
              fontSize: theme.fontSize['2xl'],
              fontWeight: 800,
              letterSpacing: '-0.03em',
              lineHeight: 1.1,
              color: theme.colors.text,
              fontVariantNumeric: 'tabular-nums',
            })}
          >
            {formatPriceUsd(priceUsd)}
          </span>
          <span css={css({ marginLeft: theme.space[1], fontSize: theme.fontSize.sm, color: theme.colors.muted })}>{period}</span>
        </span>
      </p>
      <ul role="list" css={css({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: theme.space[3], alignContent: 'start' })}>
        {features.map((feature) => (
          <li
            key={feature}
            css={css({ display: 'flex', alignItems: 'flex-start', gap: theme.space[3], fontSize: theme.fontSize.sm, lineHeight: 1.5 })}
          >
            <span
              css={css({
                display: 'inline-grid',
                placeItems: 'center',
                flexShrink: 0,
                width: theme.space[5],
                height: theme.space[5],
                borderRadius: theme.radius.pill,
                background: alpha(accent, 12),
                color: accent,
              })}
            >
              <Icon name="check" size={14} />
            </span>
            {feature}
          </li>
        ))}
      </ul>
      <div css={css({ alignSelf: 'end' })}>
        <ActionButton action={{ ...action, variant: action.variant ?? (popular ? 'primary' : 'secondary') }} fullWidth />
      </div>
    </li>
  );
}
