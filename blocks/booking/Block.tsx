// The `booking` block: the thank-you page's offer to pick a time in our calendar, prefilled with the
// visitor the landing form just sent (read back from the tab's sessionStorage once the page runs).
import { css, useTheme } from '@emotion/react';
import { useEffect, useState } from 'react';
import type { BookingBlock } from '../../generated/content-types.ts';
import { BookingOffer, useBookingSettings } from '../../forms/booking/BookingOffer.tsx';
import { readBookingLead } from '../../forms/booking/booking-lead-store.ts';
import type { BookingLead } from '../../forms/booking/booking-page.ts';
import { readBrowserStorage } from '../../forms/browser-world.ts';
import { toneStyles } from '../../ui/Section.tsx';
import { container } from '../../ui/styles.ts';

export default function Booking({ id, tone = 'plain' }: BookingBlock) {
  const theme = useTheme();
  const [lead, setLead] = useState<BookingLead>();
  useEffect(() => setLead(readBookingLead(readBrowserStorage('sessionStorage'))), []);
  if (useBookingSettings() === undefined) return null;
  return (
    <div
      id={id}
      css={[
        toneStyles(theme, tone),
        css({ paddingBlock: theme.space[7], scrollMarginTop: '5rem', [theme.mq.md]: { paddingBlock: theme.space[8] } }),
      ]}
    >
      <div css={[container(theme), css({ maxWidth: '48rem' })]}>
        <BookingOffer key={lead?.leadId ?? lead?.email ?? 'visitor'} lead={lead} headingLevel={2} />
      </div>
    </div>
  );
}
