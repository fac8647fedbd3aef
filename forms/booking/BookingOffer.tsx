// What a visitor sees once a lead form is accepted: a heading, a line of text, "Pick a time now" and
// the plain "Open the calendar in a new tab" link. Nothing of the booking service loads until the
// visitor presses the button: only then does the panel's own code (a chunk of its own) load and the
// booking page open inside ours. Where this document cannot show the booking page (its service is
// unknown, or the route it was first loaded on does not allow framing it), only the link is offered.
import { css, useTheme, type Theme } from '@emotion/react';
import { lazy, Suspense, useEffect, useId, useState } from 'react';
import { buttonStyle } from '../../ui/ActionButton.tsx';
import { BOOKING_LINK_ATTRIBUTE } from '../../ui/page/page-markers.ts';
import { useSite } from '../../ui/page/site-context.tsx';
import { visuallyHidden } from '../../ui/styles.ts';
import { bookingPageOf, canFrameIn, newTabAddress, type BookingLead, type BookingPage, type BookingTexts } from './booking-page.ts';

const BookingPanel = lazy(() => import('./BookingPanel.tsx'));

export type BookingOfferProps = {
  /** Who just sent the form; undefined opens an empty calendar. */
  lead: BookingLead | undefined;
  /** Called with the confirmation once the visitor booked in the page. */
  onBooked?: ((confirmation: string) => void) | undefined;
  /** The heading's level where the offer sits (a section's h2, or an h3 inside a form's section). */
  headingLevel?: 2 | 3;
};

/** The booking page and its texts from the site settings; undefined when the site offers no booking in the page. */
export function useBookingSettings(): { page: BookingPage; texts: BookingTexts; frameRoutes: readonly string[] | undefined } | undefined {
  const site = useSite();
  const texts = site.booking;
  const page = texts === undefined ? undefined : bookingPageOf(site.bookingUrl, texts.provider);
  return texts && page ? { page, texts, frameRoutes: site.bookingFrameRoutes } : undefined;
}

/** The path this document was first loaded at: its Content-Security-Policy is that route's. */
function firstLoadedPath(): string {
  const entry = performance.getEntriesByType?.('navigation')[0];
  try {
    return new URL(entry?.name ?? window.location.href).pathname;
  } catch {
    return window.location.pathname;
  }
}

export function BookingOffer({ lead, onBooked, headingLevel = 3 }: BookingOfferProps) {
  const theme = useTheme();
  const headingId = useId();
  const settings = useBookingSettings();
  // Decided in the browser: the prerendered offer (the thank-you page's) shows only the link.
  const [frameable, setFrameable] = useState(false);
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (settings?.page.provider !== undefined) setFrameable(canFrameIn(firstLoadedPath(), settings.frameRoutes));
  }, [settings?.page.provider, settings?.frameRoutes]);
  if (!settings) return null;
  const { page, texts } = settings;
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  return (
    <section aria-labelledby={headingId} css={styles.offer(theme)} data-booking-offer="">
      <Heading id={headingId} css={styles.heading(theme)}>
        {texts.heading}
      </Heading>
      <p css={styles.text(theme)}>{texts.text}</p>
      <div css={styles.actions(theme)}>
        {/* Rendered hidden until the browser knows this document may show the calendar: its styles
            are then already in the prerendered page, so hydration adds none. */}
        {!open ? (
          <button
            type="button"
            css={[buttonStyle(theme, 'primary'), styles.untilFrameable]}
            onClick={() => setOpen(true)}
            {...(frameable ? {} : { 'data-not-frameable': '' })}
          >
            {texts.pickTime}
          </button>
        ) : null}
        <a
          href={newTabAddress(page, lead)}
          target="_blank"
          rel="noopener noreferrer"
          css={styles.newTab(theme)}
          {...{ [BOOKING_LINK_ATTRIBUTE]: '' }}
        >
          {texts.newTab}
          <span css={visuallyHidden}> (opens in a new tab)</span>
        </a>
      </div>
      {open ? (
        <Suspense fallback={<p css={styles.text(theme)}>Loading the calendar…</p>}>
          <BookingPanel page={page} lead={lead} texts={texts} onBooked={onBooked} />
        </Suspense>
      ) : null}
    </section>
  );
}

const styles = {
  offer: (theme: Theme) =>
    css({
      display: 'grid',
      gap: theme.space[3],
      marginTop: theme.space[5],
      padding: theme.space[4],
      borderRadius: theme.radius.lg,
      border: `1px solid ${theme.colors.border}`,
      background: theme.colors.white,
      color: theme.colors.text,
      textAlign: 'start',
      [theme.mq.md]: { padding: theme.space[5] },
    }),
  heading: (theme: Theme) => css({ margin: 0, fontSize: theme.fontSize.lg, color: theme.colors.text }),
  text: (theme: Theme) => css({ margin: 0, color: theme.colors.muted }),
  untilFrameable: css({ '&[data-not-frameable]': { display: 'none' } }),
  actions: (theme: Theme) => css({ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: theme.space[4] }),
  newTab: (theme: Theme) =>
    css({
      color: theme.colors.primaryDark,
      fontWeight: 600,
      textDecoration: 'underline',
      textUnderlineOffset: '0.2em',
      '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: theme.radius.sm },
    }),
};
