import { css, useTheme } from '@emotion/react';
import type { TestimonialsBlock } from '../../generated/content-types.ts';
import { ActionButton } from '../../ui/ActionButton.tsx';
import { cardGridStyle, cardStyle } from '../../ui/card.ts';
import { Icon } from '../../ui/Icon.tsx';
import { isDarkTone, Section } from '../../ui/Section.tsx';
import { visuallyHidden } from '../../ui/styles.ts';
import { alpha } from '../../ui/alpha.ts';
import { tagStyle } from '../../ui/tag.ts';

type Testimonial = TestimonialsBlock['items'][number];

/** Schema: rating is 1 to 5 stars. */
const MAX_RATING = 5;

export default function Testimonials({ id, eyebrow, heading, intro, tone, variant = 'compact', items, action }: TestimonialsBlock) {
  const theme = useTheme();
  const detailed = variant === 'detailed';
  // Three or six quotes fill rows of three; any other count reads best two by two.
  const columns = items.length % 3 === 0 ? 3 : 2;
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <ul role="list" css={cardGridStyle(theme, columns)}>
        {items.map((item) => (
          <li key={`${item.name}-${item.company}`} css={css({ display: 'flex' })}>
            <TestimonialCard item={item} detailed={detailed} />
          </li>
        ))}
      </ul>
      {action ? (
        <div css={css({ display: 'flex', justifyContent: 'center', marginTop: theme.space[7] })}>
          <ActionButton action={action} onDark={isDarkTone(tone)} />
        </div>
      ) : null}
    </Section>
  );
}

function TestimonialCard({ item, detailed }: { item: Testimonial; detailed: boolean }) {
  const theme = useTheme();
  return (
    <figure
      css={[
        cardStyle(theme),
        css({
          flex: 1,
          margin: 0,
          gap: theme.space[5],
          padding: theme.space[5],
          overflow: 'hidden',
          [theme.mq.md]: { padding: theme.space[6] },
          // A large opening quotation mark as a watermark.
          '&::before': {
            content: '"\\201C"',
            position: 'absolute',
            top: theme.space[4],
            right: theme.space[5],
            fontSize: theme.fontSize.display,
            lineHeight: 1,
            fontWeight: 800,
            color: alpha(theme.colors.primary, 12),
            pointerEvents: 'none',
          },
        }),
      ]}
    >
      <div css={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: theme.space[3] })}>
        <StarRating value={item.rating} />
        {detailed && item.useCase ? <p css={[tagStyle(theme), css({ margin: 0, borderRadius: theme.radius.sm })]}>{item.useCase}</p> : null}
      </div>
      <blockquote
        css={css({
          margin: 0,
          flex: 1,
          fontSize: theme.fontSize.md,
          lineHeight: 1.65,
          color: theme.colors.text,
          [theme.mq.md]: { fontSize: detailed ? theme.fontSize.md : theme.fontSize.lg },
        })}
      >
        <p css={css({ margin: 0 })}>{item.quote}</p>
      </blockquote>
      {detailed && item.result ? <ResultHighlight result={item.result} /> : null}
      <figcaption
        css={css({
          display: 'flex',
          alignItems: 'center',
          gap: theme.space[3],
          paddingTop: theme.space[4],
          borderTop: `1px solid ${theme.colors.border}`,
        })}
      >
        <Avatar item={item} />
        <span css={css({ display: 'grid', lineHeight: 1.4 })}>
          <span css={css({ fontWeight: 700, color: theme.colors.text })}>{item.name}</span>
          <span css={css({ fontSize: theme.fontSize.sm, color: theme.colors.muted })}>
            {item.role}, {item.company}
          </span>
        </span>
      </figcaption>
    </figure>
  );
}

function StarRating({ value }: { value: number }) {
  const theme = useTheme();
  return (
    <p css={css({ display: 'inline-flex', gap: theme.space[1], margin: 0 })}>
      <span css={visuallyHidden}>{`Rated ${value} out of ${MAX_RATING}`}</span>
      {Array.from({ length: MAX_RATING }, (_, index) => (
        <Icon
          key={index}
          name="star"
          size={18}
          css={css({ color: index < value ? theme.colors.gold : theme.colors.border, fill: 'currentColor' })}
        />
      ))}
    </p>
  );
}

function ResultHighlight({ result }: { result: string }) {
  const theme = useTheme();
  return (
    <p
      css={css({
        display: 'flex',
        alignItems: 'center',
        gap: theme.space[3],
        margin: 0,
        padding: `${theme.space[3]} ${theme.space[4]}`,
        borderRadius: theme.radius.md,
        background: alpha(theme.colors.success, 9),
        color: theme.colors.success,
        fontWeight: 700,
        lineHeight: 1.4,
      })}
    >
      <Icon name="trending-up" size={20} css={css({ flexShrink: 0 })} />
      {result}
    </p>
  );
}

function Avatar({ item }: { item: Testimonial }) {
  const theme = useTheme();
  const size = css({ width: theme.space[7], height: theme.space[7], flexShrink: 0, borderRadius: theme.radius.pill });
  if (item.image) {
    const { src, alt, width, height } = item.image;
    return (
      <img
        src={src}
        alt={alt}
        width={width}
        height={height}
        loading="lazy"
        decoding="async"
        css={[size, css({ objectFit: 'cover', background: theme.colors.surface })]}
      />
    );
  }
  const initials = item.name
    .split(/\s+/)
    .map((part) => part[0])
    .slice(0, 2)
    .join('');
  return (
    <span
      aria-hidden="true"
      css={[
        size,
        css({
          display: 'inline-grid',
          placeItems: 'center',
          background: alpha(theme.colors.primary, 12),
          color: theme.colors.primaryDark,
          fontWeight: 700,
          fontSize: theme.fontSize.sm,
        }),
      ]}
    >
      {initials}
    </span>
  );
}
