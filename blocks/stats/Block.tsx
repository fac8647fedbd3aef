import { css, useTheme } from '@emotion/react';
import type { StatsBlock } from '../../generated/content-types.ts';
import { Icon } from '../../ui/Icon.tsx';
import { isDarkTone, Section } from '../../ui/Section.tsx';

export default function Stats({ id, eyebrow, heading, intro, tone, variant = 'inline', items }: StatsBlock) {
  const theme = useTheme();
  const dark = isDarkTone(tone);
  const boxed = variant !== 'inline';
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <dl
        css={css({
          margin: 0,
          display: 'grid',
          gap: boxed ? theme.space[4] : theme.space[6],
          gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 10.5rem), 1fr))',
          [theme.mq.lg]: { gridTemplateColumns: `repeat(${Math.min(items.length, 4)}, minmax(0, 1fr))` },
        })}
      >
        {items.map((item) => (
          <div
            key={`${item.value}-${item.label}`}
            css={css({
              display: 'flex',
              flexDirection: 'column-reverse',
              alignItems: 'center',
              textAlign: 'center',
              gap: theme.space[1],
              ...(boxed && {
                padding: theme.space[5],
                borderRadius: theme.radius.lg,
                background: dark ? 'rgba(255,255,255,0.06)' : theme.colors.white,
                border: `1px solid ${dark ? 'rgba(255,255,255,0.12)' : theme.colors.border}`,
                boxShadow: dark ? 'none' : theme.shadow.card,
              }),
              ...(variant === 'tiles' && !dark && { background: `linear-gradient(160deg, #EEF2FF, ${theme.colors.white})` }),
            })}
          >
            <dt css={css({ fontSize: theme.fontSize.sm, fontWeight: 500, color: dark ? theme.colors.onDark : theme.colors.muted })}>
              {item.label}
              {item.text ? (
                <span css={css({ display: 'block', fontSize: theme.fontSize.xs, fontWeight: 400, marginTop: theme.space[1] })}>
                  {item.text}
                </span>
              ) : null}
            </dt>
            <dd
              css={css({
                margin: 0,
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                fontSize: theme.fontSize['2xl'],
                fontWeight: 800,
                letterSpacing: '-0.03em',
                lineHeight: 1.1,
                color: dark ? theme.colors.white : theme.colors.text,
              })}
            >
              {item.icon ? (
                // Inside the <dd>: a <dl> group may hold only <dt> and <dd>.
                <span css={css({ display: 'inline-flex', color: dark ? '#A5B4FC' : theme.colors.primary, marginBottom: theme.space[3] })}>
                  <Icon name={item.icon} />
                </span>
              ) : null}
              {item.value}
            </dd>
          </div>
        ))}
      </dl>
    </Section>
  );
}
