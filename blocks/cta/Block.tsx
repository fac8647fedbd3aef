import { css, useTheme, type Theme } from '@emotion/react';
import type { CtaBlock, Tone } from '../../generated/content-types.ts';
import { ActionRow } from '../../ui/ActionButton.tsx';
import { Section } from '../../ui/Section.tsx';
import { tonePalette, type TonePalette } from '../../ui/tone-palette.ts';

export default function Cta({ id, eyebrow, heading, text, actions, note, tone = 'brand' }: CtaBlock) {
  const theme = useTheme();
  const palette = tonePalette(theme, tone);
  return (
    <Section id={id} tone={tone} eyebrow={eyebrow} heading={heading} intro={text} css={glow(theme, tone, palette)}>
      <ActionRow actions={actions} onDark={palette.dark} align="center" />
      {note ? (
        <p
          css={css({
            margin: `${theme.space[5]} auto 0`,
            maxWidth: theme.width.text,
            textAlign: 'center',
            fontSize: theme.fontSize.sm,
            color: palette.subtle,
          })}
        >
          {note}
        </p>
      ) : null}
    </Section>
  );
}

/**
 * Soft washes and a faint grid framing the band's content, heading one step larger than other sections.
 * On brand the washes are dark and sit in the gradient's lightest corners, so they only ever raise text contrast.
 */
function glow(theme: Theme, tone: Tone, palette: TonePalette) {
  const wash = (color: string, percent: number) => `color-mix(in srgb, ${color} ${percent}%, transparent)`;
  const lines = palette.dark ? 'rgba(255, 255, 255, 0.07)' : wash(theme.colors.primary, 8);
  const light = `radial-gradient(40rem 20rem at 50% 0%, ${wash(theme.colors.primary, 12)}, transparent 70%)`;
  const washes: Record<Tone, string> = {
    plain: light,
    muted: light,
    dark: `radial-gradient(48rem 22rem at 50% 0%, ${wash(theme.colors.primary, 40)}, transparent 70%),
      radial-gradient(36rem 18rem at 100% 100%, ${wash(theme.colors.accent, 22)}, transparent 70%)`,
    brand: `radial-gradient(48rem 24rem at 100% 100%, rgba(11, 17, 32, 0.4), transparent 70%),
      radial-gradient(36rem 18rem at 0% 100%, rgba(11, 17, 32, 0.2), transparent 70%)`,
  };
  const layer = { content: '""', position: 'absolute', inset: 0, zIndex: -1, pointerEvents: 'none' } as const;
  return css({
    position: 'relative',
    overflow: 'hidden',
    isolation: 'isolate',
    '& h2': { fontSize: theme.fontSize['3xl'], letterSpacing: '-0.03em' },
    '&::before': { ...layer, background: washes[tone] },
    '&::after': {
      ...layer,
      backgroundImage: `linear-gradient(${lines} 1px, transparent 1px), linear-gradient(90deg, ${lines} 1px, transparent 1px)`,
      backgroundSize: `${theme.space[8]} ${theme.space[8]}`,
      backgroundPosition: 'center',
      // Visible towards the edges only, so no line runs behind the text.
      maskImage: 'radial-gradient(ellipse at center, transparent 35%, black 90%)',
    },
  });
}
