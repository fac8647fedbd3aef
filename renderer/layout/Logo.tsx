import { css, useTheme } from '@emotion/react';
import { useSite } from '../../ui/page/site-context.tsx';

export function Logo({ onDark = false }: { onDark?: boolean }) {
  const theme = useTheme();
  const site = useSite();
  return (
    <>
      <span
        aria-hidden="true"
        css={css({
          display: 'inline-grid',
          placeItems: 'center',
          width: '2.25rem',
          height: '2.25rem',
          borderRadius: '0.75rem',
          background: `linear-gradient(135deg, ${theme.colors.primary}, ${theme.colors.accent})`,
          color: theme.colors.white,
          fontWeight: 800,
          fontSize: '1.125rem',
        })}
      >
        {site.company.logo ?? site.company.shortName.charAt(0)}
      </span>
      <span
        css={css({
          fontWeight: 750,
          fontSize: '1.125rem',
          letterSpacing: '-0.02em',
          color: onDark ? theme.colors.white : theme.colors.text,
        })}
      >
        {site.company.shortName}
      </span>
    </>
  );
}
