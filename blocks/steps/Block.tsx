import { css, useTheme, type Theme } from '@emotion/react';
import type { StepsBlock } from '../../generated/content-types.ts';
import { itemHeadingTag } from '../../ui/heading-level.ts';
import { Section } from '../../ui/Section.tsx';
import { tonePalette, type TonePalette } from '../../ui/tone-palette.ts';

type Step = StepsBlock['steps'][number];
type StepListProps = { steps: Step[]; palette: TonePalette; titleTag: 'h2' | 'h3' };

export default function Steps({ id, eyebrow, heading, intro, tone, variant = 'numbered', steps }: StepsBlock) {
  const theme = useTheme();
  const palette = tonePalette(theme, tone);
  const titleTag = itemHeadingTag(Boolean(heading));
  const timeline = variant === 'timeline';
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone} narrow={timeline}>
      {timeline ? (
        <Timeline steps={steps} palette={palette} titleTag={titleTag} />
      ) : (
        <NumberedSteps steps={steps} palette={palette} titleTag={titleTag} />
      )}
    </Section>
  );
}

const listReset = css({ listStyle: 'none', margin: 0, padding: 0 });

const stepTitle = (theme: Theme, palette: TonePalette) =>
  css({ margin: 0, fontSize: theme.fontSize.lg, fontWeight: 700, lineHeight: 1.3, letterSpacing: '-0.01em', color: palette.heading });

const stepText = (theme: Theme, palette: TonePalette) =>
  css({ margin: `${theme.space[2]} 0 0`, fontSize: theme.fontSize.sm, lineHeight: 1.7, color: palette.body });

const timeLabel = (theme: Theme, palette: TonePalette) =>
  css({
    margin: 0,
    fontSize: theme.fontSize.xs,
    fontWeight: 700,
    letterSpacing: '0.06em',
    textTransform: 'uppercase',
    color: palette.accent,
  });

/** Up to four steps share one row on wide screens; longer sequences wrap in rows of three. */
const columnsFor = (count: number) => (count <= 4 ? count : 3);

function NumberedSteps({ steps, palette, titleTag: Title }: StepListProps) {
  const theme = useTheme();
  const columns = columnsFor(steps.length);
  const badgeSize = theme.space[7];
  return (
    <ol
      css={[
        listReset,
        css({
          display: 'grid',
          gap: theme.space[5],
          gridTemplateColumns: 'minmax(0, 1fr)',
          [theme.mq.md]: { gridTemplateColumns: `repeat(${Math.min(columns, 2)}, minmax(0, 1fr))` },
          [theme.mq.lg]: { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: theme.space[6] },
        }),
      ]}
    >
      {steps.map((step, index) => (
        <li
          key={`${index}-${step.title}`}
          css={css({
            position: 'relative',
            display: 'flex',
            flexDirection: 'column',
            padding: theme.space[5],
            borderRadius: theme.radius.lg,
            background: palette.card,
            border: `1px solid ${palette.cardBorder}`,
            boxShadow: palette.cardShadow,
            [theme.mq.md]: { padding: theme.space[6] },
            // A hairline joins the number badges across a row on wide screens.
            [theme.mq.lg]: {
              [`&:not(:nth-of-type(${columns}n)):not(:last-of-type)::after`]: {
                content: '""',
                position: 'absolute',
                top: `calc(${theme.space[6]} + ${badgeSize} / 2)`,
                left: '100%',
                width: theme.space[6],
                borderTop: `2px dashed ${palette.dark ? palette.cardBorder : theme.colors.border}`,
              },
            },
          })}
        >
          <div
            css={css({
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              flexWrap: 'wrap',
              gap: theme.space[3],
              marginBottom: theme.space[5],
            })}
          >
            <span
              css={css({
                display: 'inline-flex',
                alignItems: 'center',
                justifyContent: 'center',
                width: badgeSize,
                height: badgeSize,
                borderRadius: theme.radius.pill,
                fontSize: theme.fontSize.lg,
                fontWeight: 800,
                fontVariantNumeric: 'tabular-nums',
                ...(palette.dark
                  ? { background: theme.colors.white, color: theme.colors.primaryDark }
                  : {
                      background: `linear-gradient(135deg, ${theme.colors.primaryDark}, ${theme.colors.primary})`,
                      color: theme.colors.white,
                      boxShadow: theme.shadow.raised,
                    }),
              })}
            >
              {index + 1}
            </span>
            {step.time ? (
              <span
                css={[
                  timeLabel(theme, palette),
                  css({ padding: `${theme.space[1]} ${theme.space[3]}`, borderRadius: theme.radius.pill, background: palette.accentSoft }),
                ]}
              >
                {step.time}
              </span>
            ) : null}
          </div>
          <Title css={stepTitle(theme, palette)}>{step.title}</Title>
          {step.text ? <p css={stepText(theme, palette)}>{step.text}</p> : null}
        </li>
      ))}
    </ol>
  );
}

function Timeline({ steps, palette, titleTag: Title }: StepListProps) {
  const theme = useTheme();
  const dot = theme.space[4];
  const rail = theme.space[7];
  return (
    <ol css={[listReset, css({ display: 'grid', gap: theme.space[5] })]}>
      {steps.map((step, index) => (
        <li
          key={`${index}-${step.title}`}
          css={css({
            position: 'relative',
            paddingInlineStart: rail,
            // The rail runs from this dot down to the next one.
            '&:not(:last-of-type)::before': {
              content: '""',
              position: 'absolute',
              insetInlineStart: `calc(${dot} / 2 - 1px)`,
              top: theme.space[6],
              bottom: `calc(-1 * ${theme.space[5]} - ${theme.space[6]})`,
              borderInlineStart: `2px solid ${palette.dark ? palette.cardBorder : theme.colors.border}`,
            },
            '&::after': {
              content: '""',
              position: 'absolute',
              insetInlineStart: 0,
              top: `calc(${theme.space[6]} - ${dot} / 2)`,
              width: dot,
              height: dot,
              borderRadius: theme.radius.pill,
              background: palette.dark ? theme.colors.white : theme.colors.primary,
              boxShadow: `0 0 0 ${theme.space[1]} ${palette.accentSoft}`,
            },
          })}
        >
          <div
            css={css({
              display: 'flex',
              flexDirection: 'column',
              padding: theme.space[5],
              borderRadius: theme.radius.lg,
              background: palette.card,
              border: `1px solid ${palette.cardBorder}`,
              boxShadow: palette.cardShadow,
            })}
          >
            <Title css={stepTitle(theme, palette)}>{step.title}</Title>
            {/* After the title for screen readers, above it on screen. */}
            {step.time ? <p css={[timeLabel(theme, palette), css({ order: -1, marginBottom: theme.space[2] })]}>{step.time}</p> : null}
            {step.text ? <p css={stepText(theme, palette)}>{step.text}</p> : null}
          </div>
        </li>
      ))}
    </ol>
  );
}
