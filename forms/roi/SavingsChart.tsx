// Where the savings come from, as an accessible SVG bar chart (no chart library): role="img" named by
// its <title> and described by a <desc> that reads out every figure. Widths are percentages, so the
// text never scales with the viewport.
import { css, useTheme, type Theme } from '@emotion/react';
import { useId } from 'react';
import type { RoiResult } from '../../lead/roi/engine.ts';
import { formatUsd } from './format.ts';
import { describeSavings, layoutSavingsBars, type SavingsBarKey } from './chart-geometry.ts';

export const SAVINGS_CHART_TITLE = 'Where your savings come from';

// Chart rows in px: label line, then the bar under it.
const ROW_HEIGHT_PX = 64;
const LABEL_BASELINE_PX = 18;
const BAR_TOP_PX = 28;
const BAR_HEIGHT_PX = 18;

function barColors(theme: Theme): Record<SavingsBarKey, string> {
  return { revenue: theme.colors.primary, labor: theme.colors.accent, investment: theme.colors.muted };
}

type SavingsChartProps = {
  result: Pick<RoiResult, 'revenueIncrease' | 'laborSavings' | 'totalSavings'>;
  investmentUsd: number;
};

export function SavingsChart({ result, investmentUsd }: SavingsChartProps) {
  const theme = useTheme();
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const bars = layoutSavingsBars(result, investmentUsd);
  const colors = barColors(theme);
  const textStyle = css({ fontSize: theme.fontSize.sm });
  return (
    <svg
      role="img"
      aria-labelledby={titleId}
      aria-describedby={descId}
      width="100%"
      height={bars.length * ROW_HEIGHT_PX}
      css={css({ display: 'block', overflow: 'visible' })}
    >
      <title id={titleId}>{SAVINGS_CHART_TITLE}</title>
      <desc id={descId}>{describeSavings(result, investmentUsd)}</desc>
      {bars.map((bar, index) => {
        const top = index * ROW_HEIGHT_PX;
        return (
          <g key={bar.key} data-bar={bar.key}>
            <text x="0" y={top + LABEL_BASELINE_PX} fill={theme.colors.muted} css={textStyle}>
              {bar.label}
            </text>
            <text x="100%" y={top + LABEL_BASELINE_PX} textAnchor="end" fill={theme.colors.text} fontWeight={700} css={textStyle}>
              {formatUsd(bar.amountUsd)}
            </text>
            <rect x="0" y={top + BAR_TOP_PX} width="100%" height={BAR_HEIGHT_PX} rx={BAR_HEIGHT_PX / 2} fill={theme.colors.surface} />
            <rect
              x="0"
              y={top + BAR_TOP_PX}
              width={`${bar.widthPercent}%`}
              height={BAR_HEIGHT_PX}
              rx={BAR_HEIGHT_PX / 2}
              fill={colors[bar.key]}
              data-width-percent={bar.widthPercent.toFixed(2)}
            />
          </g>
        );
      })}
    </svg>
  );
}
