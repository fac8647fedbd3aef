import { css, useTheme, type Theme } from '@emotion/react';
import type { CalloutBlock } from '../../generated/content-types.ts';
import { ActionRow } from '../../ui/ActionButton.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { eyebrowStyle, Section } from '../../ui/Section.tsx';
import { shade, tint } from '../../ui/tone-palette.ts';

type Variant = NonNullable<CalloutBlock['variant']>;
type PanelVariant = Exclude<Variant, 'badge'>;

/** Each panel variant is one accent colour applied to the same shape. */
const accentOf = (theme: Theme): Record<PanelVariant, string> => ({
  success: theme.colors.success,
  guarantee: theme.colors.gold,
  info: theme.colors.primary,
});

// The heading lives inside the panel, so the callout draws its own h2 instead of Section's header.
export default function Callout({ id, variant = 'info', icon, eyebrow, heading, text, actions }: CalloutBlock) {
  const theme = useTheme();
  const compact = css({ paddingBlock: theme.space[6], [theme.mq.md]: { paddingBlock: theme.space[7] } });
  if (variant === 'badge') {
    return (
      <Section id={id} css={compact}>
        <BadgeCallout icon={icon} eyebrow={eyebrow} heading={heading} text={text} actions={actions} />
      </Section>
    );
  }
  const accent = accentOf(theme)[variant];
  // Eyebrow text on the tinted panel needs a deeper shade of the accent to stay above 4.5:1.
  const accentText = variant === 'info' ? theme.colors.primaryDark : shade(accent, 85);
  return (
    <Section id={id} narrow css={compact}>
      <div
        css={css({
          display: 'grid',
          gap: theme.space[4],
          padding: theme.space[5],
          borderRadius: theme.radius.lg,
          border: `1px solid ${tint(accent, 30)}`,
          borderInlineStart: `${theme.space[1]} solid ${accent}`,
          background:
            variant === 'guarantee'
              ? `linear-gradient(135deg, ${tint(accent, 10)}, ${theme.colors.white} 70%)`
              : tint(accent, variant === 'info' ? 6 : 8),
          boxShadow: theme.shadow.card,
          [theme.mq.sm]: {
            gridTemplateColumns: icon ? 'auto minmax(0, 1fr)' : 'minmax(0, 1fr)',
            gap: theme.space[5],
            padding: theme.space[6],
          },
        })}
      >
        {icon ? (
          <span
            css={css({
              display: 'inline-flex',
              alignItems: 'center',
              justifyContent: 'center',
              width: theme.space[7],
              height: theme.space[7],
              borderRadius: theme.radius.pill,
              color: theme.colors.white,
              background: accent,
              boxShadow: `0 0 0 ${theme.space[1]} ${tint(accent, 18)}`,
            })}
          >
            <Icon name={icon} />
          </span>
        ) : null}
        <div css={css({ display: 'flex', flexDirection: 'column', minWidth: 0 })}>
          <h2
            css={css({
              margin: 0,
              fontSize: theme.fontSize.xl,
              fontWeight: 700,
              lineHeight: 1.25,
              letterSpacing: '-0.015em',
              color: theme.colors.text,
            })}
          >
            {heading}
          </h2>
          {/* After the heading for screen readers, above it on screen. */}
          {eyebrow ? (
            <p css={[eyebrowStyle(theme, false), css({ order: -1, marginBottom: theme.space[2], color: accentText })]}>{eyebrow}</p>
          ) : null}
          {text ? (
            <p css={css({ margin: `${theme.space[2]} 0 0`, fontSize: theme.fontSize.md, lineHeight: 1.65, color: theme.colors.muted })}>
              {text}
            </p>
          ) : null}
          {actions?.length ? (
            <div css={css({ marginTop: theme.space[5] })}>
              <ActionRow actions={actions} />
            </div>
          ) : null}
        </div>
      </div>
    </Section>
  );
}

function BadgeCallout({ icon, eyebrow, heading, text, actions }: Omit<CalloutBlock, 'type' | 'id' | 'variant'>) {
  const theme = useTheme();
  return (
    <div css={css({ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: theme.space[3] })}>
      <h2
        css={css({
          display: 'inline-flex',
          alignItems: 'center',
          gap: theme.space[2],
          margin: 0,
          padding: `${theme.space[2]} ${theme.space[5]}`,
          borderRadius: theme.radius.lg,
          border: `1px solid ${tint(theme.colors.primary, 25)}`,
          [theme.mq.sm]: { borderRadius: theme.radius.pill },
          background: `linear-gradient(135deg, ${tint(theme.colors.primary, 8)}, ${theme.colors.white})`,
          boxShadow: theme.shadow.card,
          fontSize: theme.fontSize.sm,
          fontWeight: 700,
          lineHeight: 1.4,
          letterSpacing: 0,
          color: theme.colors.text,
        })}
      >
        {icon ? (
          <span css={css({ flex: 'none', display: 'inline-flex', color: theme.colors.primary })}>
            <Icon name={icon} size={18} />
          </span>
        ) : null}
        {heading}
      </h2>
      {eyebrow ? <p css={[eyebrowStyle(theme, false), css({ order: -1, margin: 0 })]}>{eyebrow}</p> : null}
      {text ? (
        <p css={css({ margin: 0, maxWidth: theme.width.text, fontSize: theme.fontSize.sm, lineHeight: 1.6, color: theme.colors.muted })}>
          {text}
        </p>
      ) : null}
      {actions?.length ? <ActionRow actions={actions} align="center" /> : null}
    </div>
  );
}
