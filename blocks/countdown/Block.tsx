import { css, useTheme } from '@emotion/react';
import { Fragment, useEffect, useState } from 'react';
import type { CountdownBlock } from '../../generated/content-types.ts';
import { Section } from '../../ui/Section.tsx';
import { tonePalette } from '../../ui/tone-palette.ts';
import { formatClock, remainingAt, toSeconds, type ClockFace } from './clock.ts';

const TICK_MS = 1000;
const UNITS: { key: keyof ClockFace; label: string }[] = [
  { key: 'hours', label: 'Hours' },
  { key: 'minutes', label: 'Minutes' },
  { key: 'seconds', label: 'Seconds' },
];
/** Name of the timer when the block has no heading to borrow. */
const TIMER_LABEL = 'Countdown';

export default function Countdown({ id, eyebrow, heading, intro, tone, start, note }: CountdownBlock) {
  const theme = useTheme();
  const palette = tonePalette(theme, tone);
  const startSeconds = toSeconds(start);
  // The server and the first client render both show the start value, so hydration matches; ticking begins after mount.
  const [remaining, setRemaining] = useState(startSeconds);
  useEffect(() => {
    const startedAt = Date.now();
    const timer = setInterval(() => setRemaining(remainingAt(Date.now() - startedAt, startSeconds)), TICK_MS);
    return () => clearInterval(timer);
  }, [startSeconds]);
  const face = formatClock(remaining);

  const tile = css({
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: theme.space[1],
    minWidth: 0,
    paddingBlock: theme.space[4],
    borderRadius: theme.radius.lg,
    [theme.mq.md]: { paddingBlock: theme.space[5] },
    ...(palette.dark
      ? { background: palette.card, border: `1px solid ${palette.cardBorder}` }
      : { background: `linear-gradient(160deg, ${theme.colors.ink}, ${theme.colors.primaryDark} 160%)`, boxShadow: theme.shadow.raised }),
  });

  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      {/* aria-live="off": the digits are read when a user reaches them, never announced on every tick. */}
      <div
        role="timer"
        aria-live="off"
        aria-atomic="true"
        aria-label={heading ?? TIMER_LABEL}
        css={css({
          display: 'grid',
          gridTemplateColumns: 'minmax(0, 1fr) auto minmax(0, 1fr) auto minmax(0, 1fr)',
          alignItems: 'center',
          gap: theme.space[2],
          maxWidth: theme.width.text,
          marginInline: 'auto',
          [theme.mq.md]: { gap: theme.space[3] },
        })}
      >
        {UNITS.map((unit, index) => (
          <Fragment key={unit.key}>
            {index > 0 ? (
              <span
                aria-hidden="true"
                css={css({
                  fontSize: theme.fontSize['2xl'],
                  fontWeight: 700,
                  lineHeight: 1,
                  color: palette.dark ? palette.subtle : theme.colors.primary,
                })}
              >
                :
              </span>
            ) : null}
            <span css={tile}>
              <span
                css={css({
                  fontSize: theme.fontSize.display,
                  fontWeight: 800,
                  lineHeight: 1,
                  letterSpacing: '-0.02em',
                  fontVariantNumeric: 'tabular-nums',
                  color: theme.colors.white,
                })}
              >
                {face[unit.key]}
              </span>{' '}
              <span
                css={css({
                  fontSize: theme.fontSize.xs,
                  fontWeight: 600,
                  letterSpacing: '0.08em',
                  textTransform: 'uppercase',
                  color: palette.dark ? palette.subtle : theme.colors.onDarkMuted,
                })}
              >
                {unit.label}
              </span>
            </span>
          </Fragment>
        ))}
      </div>
      {note ? (
        <p css={css({ display: 'flex', justifyContent: 'center', margin: `${theme.space[6]} 0 0` })}>
          <span
            css={css({
              display: 'inline-flex',
              alignItems: 'center',
              gap: theme.space[2],
              padding: `${theme.space[2]} ${theme.space[4]}`,
              borderRadius: theme.radius.pill,
              fontSize: theme.fontSize.sm,
              fontWeight: 600,
              textAlign: 'center',
              color: palette.accent,
              background: palette.accentSoft,
              '&::before': {
                content: '""',
                flex: 'none',
                width: theme.space[2],
                height: theme.space[2],
                borderRadius: theme.radius.pill,
                background: 'currentColor',
              },
            })}
          >
            {note}
          </span>
        </p>
      ) : null}
    </Section>
  );
}
