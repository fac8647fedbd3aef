import { css, useTheme } from '@emotion/react';
import type { TeamBlock } from '../../generated/content-types.ts';
import { cardGridStyle, cardStyle } from '../../ui/card.ts';
import { Section } from '../../ui/Section.tsx';
import { alpha } from '../../ui/alpha.ts';

export default function Team({ id, eyebrow, heading, intro, tone, members }: TeamBlock) {
  const theme = useTheme();
  // Names are card headings under the section heading; without one they are the section's top headings.
  const NameHeading = heading ? 'h3' : 'h2';
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <ul role="list" css={cardGridStyle(theme, Math.min(members.length, 4))}>
        {members.map(({ name, role, experience, image }) => (
          <li key={name} css={css({ display: 'flex' })}>
            {/* Phones: portrait beside the text; from tablets up: portrait on top. */}
            <article
              css={[
                cardStyle(theme),
                css({ flex: 1, flexDirection: 'row', overflow: 'hidden', [theme.mq.md]: { flexDirection: 'column' } }),
              ]}
            >
              <div
                css={css({
                  flex: '0 0 36%',
                  background: `linear-gradient(160deg, ${alpha(theme.colors.primary, 14)}, ${alpha(theme.colors.accent, 10)})`,
                  [theme.mq.md]: { flex: 'none' },
                })}
              >
                <img
                  src={image.src}
                  alt={image.alt}
                  width={image.width}
                  height={image.height}
                  loading="lazy"
                  decoding="async"
                  css={css({
                    display: 'block',
                    width: '100%',
                    height: '100%',
                    [theme.mq.md]: { height: 'auto' },
                    aspectRatio: image.width && image.height ? `${image.width} / ${image.height}` : '1',
                    objectFit: 'cover',
                  })}
                />
              </div>
              <div css={css({ display: 'grid', alignContent: 'start', gap: theme.space[2], padding: theme.space[5] })}>
                <NameHeading
                  css={css({ margin: 0, fontSize: theme.fontSize.lg, fontWeight: 700, letterSpacing: '-0.01em', color: theme.colors.text })}
                >
                  {name}
                </NameHeading>
                <p css={css({ margin: 0, fontSize: theme.fontSize.sm, fontWeight: 600, color: theme.colors.primaryDark })}>{role}</p>
                <p css={css({ margin: `${theme.space[1]} 0 0`, fontSize: theme.fontSize.sm, lineHeight: 1.65, color: theme.colors.muted })}>
                  {experience}
                </p>
              </div>
            </article>
          </li>
        ))}
      </ul>
    </Section>
  );
}
