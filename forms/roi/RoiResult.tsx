// The calculator's result screen: the figures of the analysis, the savings chart, and the two
// ways on: another calculation, or picking a time in our calendar inside the page (or, where the site
// offers no booking in the page, the booking page in a new tab).
import { css, useTheme, type Theme } from '@emotion/react';
import { startTransition, useEffect, useRef, useState } from 'react';
import { buttonStyle } from '../../ui/ActionButton.tsx';
import { SmartLink } from '../../ui/SmartLink.tsx';
import { BOOKING_HREF } from '../../ui/link-target.ts';
import type { RoiResult } from '../../lead/roi/engine.ts';
import { formatRoiResult } from './format.ts';
import { nextTask } from '../../ui/page/when-idle.ts';
import { BookingOffer, useBookingSettings } from '../booking/BookingOffer.tsx';
import type { BookingLead } from '../booking/booking-page.ts';
import { SavingsChart } from './SavingsChart.tsx';

export const RESULT_HEADING = 'Success! Your ROI Analysis is Ready';
// The implementation timeline shown with every result.
export const IMPLEMENTATION_TIMELINE = '7-90 days depending on project';

type RoiResultViewProps = {
  result: RoiResult;
  /** Who sent the form: the calendar opens prefilled for them. */
  lead: BookingLead;
  investmentUsd: number;
  onCalculateAnother: () => void;
  onBooked?: ((confirmation: string) => void) | undefined;
  /** Every part at once, as when its style rules are prerendered; on screen it comes part by part. */
  whole?: boolean | undefined;
};

/** The parts of the result screen, in the order they appear: the news, the figures behind it, the ways on. */
const PARTS = 3;

export function RoiResultView({ result, lead, investmentUsd, onCalculateAnother, onBooked, whole = false }: RoiResultViewProps) {
  const theme = useTheme();
  const inPageBooking = useBookingSettings() !== undefined;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const display = formatRoiResult(result);

  // The form the visitor was in is gone: focus lands on the news that replaced it.
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  // The news first (the heading, which takes the focus, and the two headline figures), then the
  // details and the chart, then the ways on, each in a task of its own: on a slow phone the whole
  // screen at once was one long task (the form's removal, the new elements, their layout).
  const [shown, setShown] = useState(whole ? PARTS : 1);
  useEffect(() => {
    if (shown >= PARTS) return;
    let cancelled = false;
    void nextTask().then(() => {
      if (!cancelled) startTransition(() => setShown((parts) => parts + 1));
    });
    return () => {
      cancelled = true;
    };
  }, [shown]);

  const details = [
    { term: 'Weekly Hours Saved', value: display.weeklyHoursSaved, note: 'hours per team member' },
    { term: 'Additional Revenue', value: display.revenueIncrease, note: `${display.upliftPercentage} uplift for your industry` },
    { term: 'Labor Cost Savings', value: display.laborSavings, note: 'per year' },
    { term: 'Implementation Timeline', value: IMPLEMENTATION_TIMELINE, note: undefined },
  ];

  return (
    <div css={styles.card(theme)}>
      <div css={styles.header(theme)}>
        <span css={styles.badge(theme)} aria-hidden="true">
          <svg
            width={28}
            height={28}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2.5}
            strokeLinecap="round"
            strokeLinejoin="round"
            focusable="false"
          >
            <path d="M20 6 9 17l-5-5" />
          </svg>
        </span>
        <h3 ref={headingRef} tabIndex={-1} css={styles.heading(theme)}>
          {RESULT_HEADING}
        </h3>
        <p css={styles.lead(theme)}>Here is what AI automation could be worth to your business each year.</p>
      </div>

      <dl css={styles.headline(theme)}>
        <div css={styles.headlineItem(theme)}>
          <dt css={styles.headlineTerm(theme)}>Total Annual Savings</dt>
          <dd css={styles.headlineValue(theme)}>{display.totalSavings}</dd>
        </div>
        <div css={styles.headlineItem(theme)}>
          <dt css={styles.headlineTerm(theme)}>Return on Investment</dt>
          <dd css={styles.headlineValue(theme)}>{display.roi}</dd>
        </div>
      </dl>

      {shown >= 2 ? (
        <>
          <dl css={styles.detailGrid(theme)}>
            {details.map((detail) => (
              <div key={detail.term} css={styles.detail(theme)}>
                <dt css={styles.detailTerm(theme)}>{detail.term}</dt>
                <dd css={styles.detailValue(theme)}>
                  {detail.value}
                  {detail.note ? <span css={styles.detailNote(theme)}>{detail.note}</span> : null}
                </dd>
              </div>
            ))}
          </dl>

          <figure css={styles.figure(theme)}>
            <figcaption css={styles.figcaption(theme)}>Where your savings come from</figcaption>
            <SavingsChart result={result} investmentUsd={investmentUsd} />
          </figure>
        </>
      ) : null}

      {shown >= 3 ? (
        <>
          <div css={styles.actions(theme)}>
            <button type="button" onClick={onCalculateAnother} css={buttonStyle(theme, 'secondary')}>
              Calculate Another ROI
            </button>
            {inPageBooking ? null : (
              <SmartLink href={BOOKING_HREF} css={buttonStyle(theme, 'primary')}>
                Book Appointment Now
              </SmartLink>
            )}
          </div>
          {inPageBooking ? <BookingOffer key={lead.leadId ?? lead.email} lead={lead} onBooked={onBooked} /> : null}
        </>
      ) : null}
    </div>
  );
}

const styles = {
  card: (theme: Theme) =>
    css({
      display: 'grid',
      gap: theme.space[6],
      padding: theme.space[5],
      borderRadius: theme.radius.lg,
      background: theme.colors.white,
      color: theme.colors.text,
      border: `1px solid ${theme.colors.border}`,
      boxShadow: theme.shadow.raised,
      [theme.mq.md]: { padding: theme.space[7] },
    }),
  header: (theme: Theme) => css({ display: 'grid', justifyItems: 'center', gap: theme.space[3], textAlign: 'center' }),
  badge: (theme: Theme) =>
    css({
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      width: theme.space[8],
      height: theme.space[8],
      borderRadius: theme.radius.pill,
      color: theme.colors.success,
      background: `color-mix(in srgb, ${theme.colors.success} 12%, white)`,
    }),
  heading: (theme: Theme) =>
    css({
      margin: 0,
      fontSize: theme.fontSize.xl,
      color: theme.colors.text,
      '&:focus': { outline: 'none' },
      '&:focus-visible': { boxShadow: theme.focusRing, borderRadius: theme.radius.sm },
    }),
  lead: (theme: Theme) => css({ margin: 0, color: theme.colors.muted }),
  headline: (theme: Theme) =>
    css({
      display: 'grid',
      gap: theme.space[4],
      margin: 0,
      gridTemplateColumns: 'minmax(0, 1fr)',
      [theme.mq.sm]: { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)' },
    }),
  headlineItem: (theme: Theme) =>
    css({
      padding: theme.space[5],
      borderRadius: theme.radius.md,
      background: `linear-gradient(135deg, ${theme.colors.primaryDark} 0%, ${theme.colors.primary} 100%)`,
      color: theme.colors.white,
      '&:last-of-type': { background: theme.colors.ink },
    }),
  headlineTerm: (theme: Theme) => css({ fontSize: theme.fontSize.sm, fontWeight: 600, color: theme.colors.white }),
  headlineValue: (theme: Theme) =>
    css({
      margin: `${theme.space[2]} 0 0`,
      fontSize: theme.fontSize['2xl'],
      fontWeight: 800,
      letterSpacing: '-0.02em',
      lineHeight: 1.1,
      fontVariantNumeric: 'tabular-nums',
    }),
  detailGrid: (theme: Theme) =>
    css({
      display: 'grid',
      gap: theme.space[4],
      margin: 0,
      gridTemplateColumns: 'minmax(0, 1fr)',
      [theme.mq.sm]: { gridTemplateColumns: 'repeat(2, minmax(0, 1fr))' },
      [theme.mq.lg]: { gridTemplateColumns: 'repeat(4, minmax(0, 1fr))' },
    }),
  detail: (theme: Theme) =>
    css({
      padding: theme.space[4],
      borderRadius: theme.radius.md,
      border: `1px solid ${theme.colors.border}`,
      background: theme.colors.surface,
    }),
  detailTerm: (theme: Theme) =>
    css({ fontSize: theme.fontSize.xs, fontWeight: 700, letterSpacing: '0.06em', textTransform: 'uppercase', color: theme.colors.muted }),
  detailValue: (theme: Theme) =>
    css({
      display: 'grid',
      gap: theme.space[1],
      margin: `${theme.space[2]} 0 0`,
      fontSize: theme.fontSize.lg,
      fontWeight: 700,
      color: theme.colors.text,
      fontVariantNumeric: 'tabular-nums',
    }),
  detailNote: (theme: Theme) => css({ fontSize: theme.fontSize.xs, fontWeight: 400, color: theme.colors.muted }),
  figure: (theme: Theme) => css({ margin: 0, display: 'grid', gap: theme.space[4] }),
  figcaption: (theme: Theme) => css({ fontSize: theme.fontSize.md, fontWeight: 700, color: theme.colors.text }),
  actions: (theme: Theme) => css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: theme.space[3] }),
};
