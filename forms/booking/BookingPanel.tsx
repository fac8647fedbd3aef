// The booking page inside ours, opened by "Pick a time now": an iframe of the booking service's own
// embeddable page (no script of the service runs in our page), prefilled, carrying the lead id. It
// listens for the service's "meeting booked" message from the booking page's origin only, and then
// says when the meeting is. Calendly's message has no time: the page asks our server, which learns
// it from Calendly's webhook, a few times, and otherwise says the meeting is booked.
import { css, useTheme, type Theme } from '@emotion/react';
import { useEffect, useRef, useState } from 'react';
import {
  askServerForTime,
  bookedText,
  embedAddress,
  readBookedMessage,
  type BookingLead,
  type BookingPage,
  type BookingTexts,
} from './booking-page.ts';

type BookingPanelProps = {
  page: BookingPage;
  lead: BookingLead | undefined;
  texts: BookingTexts;
  onBooked?: ((confirmation: string) => void) | undefined;
};

type PanelState = { kind: 'choosing' } | { kind: 'confirming' } | { kind: 'booked'; text: string };

export default function BookingPanel({ page, lead, texts, onBooked }: BookingPanelProps) {
  const theme = useTheme();
  const frameRef = useRef<HTMLIFrameElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  const [state, setState] = useState<PanelState>({ kind: 'choosing' });
  const src = embedAddress(page, lead, window.location.host);
  const onBookedRef = useRef(onBooked);
  onBookedRef.current = onBooked;

  // The calendar is what the visitor asked for: focus goes into it.
  useEffect(() => {
    frameRef.current?.focus();
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    let settled = false;
    const finish = (startsAt: string | undefined) => {
      if (controller.signal.aborted) return;
      const text = bookedText(texts, startsAt);
      setState({ kind: 'booked', text });
      onBookedRef.current?.(text);
    };
    const onMessage = (event: MessageEvent) => {
      // Only the calendar we opened: its window, and the booking page's origin (checked in readBookedMessage).
      if (settled || event.source !== frameRef.current?.contentWindow) return;
      const booked = readBookedMessage(page, { origin: event.origin, data: event.data as unknown });
      if (!booked) return;
      settled = true;
      if (booked.startsAt !== undefined || !lead?.leadId) return finish(booked.startsAt);
      setState({ kind: 'confirming' });
      void askServerForTime(lead.leadId, { signal: controller.signal }).then(finish);
    };
    window.addEventListener('message', onMessage);
    return () => {
      controller.abort();
      window.removeEventListener('message', onMessage);
    };
  }, [page, lead, texts]);

  useEffect(() => {
    if (state.kind === 'booked') statusRef.current?.focus();
  }, [state.kind]);

  return (
    <div css={styles.panel(theme)}>
      <p ref={statusRef} tabIndex={-1} role="status" css={styles.status(theme, state.kind === 'booked')}>
        {state.kind === 'booked' ? state.text : state.kind === 'confirming' ? 'Confirming your meeting…' : ''}
      </p>
      {state.kind === 'booked' || src === undefined ? null : (
        <iframe ref={frameRef} src={src} title={texts.calendarTitle} css={styles.frame(theme)} />
      )}
    </div>
  );
}

const styles = {
  panel: (theme: Theme) => css({ display: 'grid', gap: theme.space[3] }),
  status: (theme: Theme, booked: boolean) =>
    css({
      margin: 0,
      fontWeight: booked ? 700 : 400,
      fontSize: booked ? theme.fontSize.lg : theme.fontSize.md,
      color: booked ? theme.colors.success : theme.colors.muted,
      '&:focus': { outline: 'none' },
      '&:focus-visible': { boxShadow: theme.focusRing, borderRadius: theme.radius.sm },
    }),
  frame: (theme: Theme) =>
    css({
      display: 'block',
      // On a phone the calendar takes the offer's whole width, up to its border.
      width: `calc(100% + 2 * ${theme.space[4]})`,
      marginInline: `calc(-1 * ${theme.space[4]})`,
      [theme.mq.md]: { width: '100%', marginInline: 0 },
      height: 'min(44rem, 85vh)',
      minHeight: '32rem',
      border: `1px solid ${theme.colors.border}`,
      borderRadius: theme.radius.md,
      background: theme.colors.white,
    }),
};
