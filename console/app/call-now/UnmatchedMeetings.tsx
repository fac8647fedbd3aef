// Under "Call now": meetings people booked on the booking page that match no lead (they never sent
// a form, or booked with another address, or long after). Nobody owns them and no clock runs for
// them, so without this list a salesperson would first hear of them when the meeting starts. Each
// shows who, how to reach them, when and where it was booked; a cancelled one says so. The server
// lists the meetings still to come first, soonest first, then the rest, newest first.
import type { BookingView } from '../../api-types.ts';
import { BOOKING_PROVIDER_NAMES } from '../../api-types.ts';
import { formatTime, VisitorText } from '../parts/format.tsx';
import { ErrorMessage } from '../parts/messages.tsx';
import { mailtoHref } from '../parts/TouchActions.tsx';
import type { Loaded } from '../parts/use-load.ts';

export function UnmatchedMeetings({ loaded }: { loaded: Loaded<readonly BookingView[]> }) {
  if (loaded.status === 'loading') return null;
  if (loaded.status === 'error')
    return (
      <section aria-labelledby="call-now-meetings">
        <h2 id="call-now-meetings">Meetings booked by people with no lead</h2>
        <ErrorMessage>{`The meetings could not be loaded: ${loaded.error}`}</ErrorMessage>
      </section>
    );
  const meetings = loaded.data;
  return (
    <section aria-labelledby="call-now-meetings">
      <h2 id="call-now-meetings">Meetings booked by people with no lead ({meetings.length})</h2>
      {meetings.length === 0 ? (
        <p className="empty">Every meeting booked belongs to a lead.</p>
      ) : (
        <>
          <p className="hours">
            They booked a time without sending a form (or with another e-mail address): nobody owns them yet. Meetings still to come are
            listed first, soonest first.
          </p>
          <ul className="cards">
            {meetings.map((meeting) => (
              <MeetingCard key={meeting.id} meeting={meeting} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function MeetingCard({ meeting }: { meeting: BookingView }) {
  const headingId = `meeting-card-${meeting.id}`;
  const mailto = mailtoHref(meeting.email);
  const who = meeting.name || meeting.email;
  const provider = BOOKING_PROVIDER_NAMES[meeting.provider];
  return (
    <li className="lead-card" aria-labelledby={headingId}>
      <p className={meeting.status === 'cancelled' ? 'clock clock-later' : 'clock'}>
        {meeting.status === 'cancelled' ? 'Cancelled: was ' : meeting.lastChange === 'rescheduled' ? 'Moved to ' : 'Meeting '}
        {formatTime(meeting.startsAt)}
      </p>
      <h3 id={headingId} className="lead-card-name">
        <VisitorText>{who}</VisitorText>
      </h3>
      <p className="lead-card-meta">
        {mailto === undefined ? <VisitorText>{meeting.email}</VisitorText> : <a href={mailto}>{meeting.email}</a>} · booked on {provider}{' '}
        {formatTime(meeting.receivedAt)}
      </p>
    </li>
  );
}
