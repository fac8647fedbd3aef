import { css, useTheme } from '@emotion/react';
import type { RoiCalculatorBlock } from '../../renderer/content-types.ts';
import { Section } from '../ui/Section.tsx';

/** Until the lead forms land (issue 3) this block says so plainly instead of showing a dead form. */
export default function RoiCalculator({ id, eyebrow, heading, intro, tone }: RoiCalculatorBlock) {
  const theme = useTheme();
  return (
    <Section id={id} eyebrow={eyebrow} heading={heading} intro={intro} tone={tone}>
      <p role="note" css={css({ maxWidth: '36rem', marginInline: 'auto', padding: theme.space[5], borderRadius: theme.radius.md, border: `1px dashed ${theme.colors.border}`, textAlign: 'center', color: theme.colors.muted, background: theme.colors.white })}>
        The ROI calculator is coming soon.
      </p>
    </Section>
  );
}
