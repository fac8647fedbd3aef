import { css, useTheme } from '@emotion/react';
import type { FormBlock } from '../../renderer/content-types.ts';
import { Section } from '../ui/Section.tsx';

/** Until the lead forms land (issue 3) this block says so plainly instead of showing a dead form. */
export default function Form({ id, eyebrow, heading, intro, tone }: FormBlock) {
  const theme = useTheme();
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <p role="note" css={css({ maxWidth: '36rem', marginInline: 'auto', padding: theme.space[5], borderRadius: theme.radius.md, border: `1px dashed ${theme.colors.border}`, textAlign: 'center', color: theme.colors.muted, background: theme.colors.white })}>
        This form is coming soon.
      </p>
    </Section>
  );
}
