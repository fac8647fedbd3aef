import { css, useTheme, type Theme } from '@emotion/react';
import type { Action } from '../generated/content-types.ts';
import { Icon } from './Icon.tsx';
import { SmartLink } from './SmartLink.tsx';

type Variant = NonNullable<Action['variant']>;

export function buttonStyle(theme: Theme, variant: Variant, onDark = false) {
  const base = css({
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: theme.space[2],
    minHeight: '2.75rem',
    padding: `${theme.space[3]} ${theme.space[5]}`,
    borderRadius: theme.radius.pill,
    border: '2px solid transparent',
    fontSize: theme.fontSize.md,
    fontWeight: 600,
    lineHeight: 1.2,
    textDecoration: 'none',
    cursor: 'pointer',
    transition: `background ${theme.motion.fast}, color ${theme.motion.fast}, border-color ${theme.motion.fast}, transform ${theme.motion.fast}`,
    '&:hover': { transform: 'translateY(-1px)' },
    '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
    '&:disabled, &[aria-disabled="true"]': { opacity: 0.65, cursor: 'not-allowed', transform: 'none' },
  });
  // Each hover repeats its text colour: the global `a:hover` colour would otherwise win and hide the label.
  const variants: Record<Variant, ReturnType<typeof css>> = {
    primary: onDark
      ? css({
          background: theme.colors.white,
          color: theme.colors.primaryDark,
          '&:hover': { background: '#EEF2FF', color: theme.colors.primaryDark },
        })
      : css({
          background: theme.colors.primary,
          color: theme.colors.white,
          '&:hover': { background: theme.colors.primaryDark, color: theme.colors.white },
        }),
    secondary: onDark
      ? css({
          borderColor: 'rgba(255,255,255,0.7)',
          color: theme.colors.white,
          '&:hover': { background: 'rgba(255,255,255,0.12)', color: theme.colors.white },
        })
      : css({
          borderColor: theme.colors.primary,
          color: theme.colors.primary,
          background: theme.colors.white,
          '&:hover': { background: '#EEF2FF', color: theme.colors.primaryDark },
        }),
    ghost: css({
      color: onDark ? theme.colors.white : theme.colors.primary,
      paddingInline: theme.space[3],
      '&:hover': { textDecoration: 'underline', color: onDark ? theme.colors.white : theme.colors.primaryDark },
    }),
  };
  return [base, variants[variant]];
}

type ActionButtonProps = { action: Action; onDark?: boolean | undefined; fullWidth?: boolean };

/** A content-defined button: `href` decides whether it navigates, reloads, opens a tab or dials. */
export function ActionButton({ action, onDark, fullWidth }: ActionButtonProps) {
  const theme = useTheme();
  return (
    <SmartLink
      href={action.href}
      fullPageLoad={action.fullPageLoad}
      css={[...buttonStyle(theme, action.variant ?? 'primary', onDark), fullWidth && css({ width: '100%' })]}
    >
      {action.label}
      {action.icon ? <Icon name={action.icon} size={18} /> : null}
    </SmartLink>
  );
}

export function ActionRow({
  actions,
  onDark,
  align = 'start',
}: {
  actions: Action[] | undefined;
  onDark?: boolean | undefined;
  align?: 'start' | 'center';
}) {
  const theme = useTheme();
  if (!actions?.length) return null;
  return (
    <div
      css={css({ display: 'flex', flexWrap: 'wrap', gap: theme.space[3], justifyContent: align === 'center' ? 'center' : 'flex-start' })}
    >
      {actions.map((action) => (
        <ActionButton key={`${action.label}-${action.href}`} action={action} onDark={onDark} />
      ))}
    </div>
  );
}
