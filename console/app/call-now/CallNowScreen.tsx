// "Call now", a salesperson's first screen: their own untouched leads, then the unassigned ones,
// oldest first (the server's order), each a card built for a phone: how long the lead has waited,
// who it is, what they asked, and one tap to call or e-mail. A logged call or e-mail takes the lead
// off the list, since it is no longer waiting. The list refreshes every 30 seconds while the screen
// is visible (new leads arrive, colleagues take some), and the clocks tick every minute in between
// without asking the server. Below the leads, the meetings booked by people we have no lead for.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import type { CallNow, QueueLead } from '../../api-types.ts';
import { messageOf } from '../api.ts';
import { clockUrgency, formatClock, formatClockStart, OUTCOME_LABELS, VisitorText } from '../parts/format.tsx';
import { ErrorMessage, LoadState, StatusMessage } from '../parts/messages.tsx';
import { TouchActions } from '../parts/TouchActions.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';
import { UnmatchedMeetings } from './UnmatchedMeetings.tsx';

export const REFRESH_MS = 30_000;
const TICK_MS = 60_000;

/** Every 30 seconds while the page is visible, and at once when it becomes visible again. */
function useRefresh(reload: () => void) {
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reload();
    }, REFRESH_MS);
    const onVisible = () => document.visibilityState === 'visible' && reload();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [reload]);
}

export function CallNowScreen() {
  const { api } = useSession();
  // When each answer arrived: a running clock adds the minutes since.
  const queue = useLoad(async () => ({ queue: await api.queue(), readAt: Date.now() }), 'queue');
  // Below the leads: meetings booked by people we have no lead for, refreshed with the queue.
  const meetings = useLoad(async () => (await api.bookings(true)).bookings, 'unmatched-meetings');
  const { reload: reloadQueue } = queue;
  const { reload: reloadMeetings } = meetings;
  const reload = useCallback(() => {
    reloadQueue();
    reloadMeetings();
  }, [reloadQueue, reloadMeetings]);
  useRefresh(reload);
  return (
    <>
      <h1>Call now</h1>
      <LoadState loaded={queue} what="the leads to call">
        {(data) => <Queue queue={data.queue} readAt={data.readAt} onChanged={queue.reload} />}
      </LoadState>
      <UnmatchedMeetings loaded={meetings} />
    </>
  );
}

function Queue({ queue, readAt, onChanged }: { queue: CallNow; readAt: number; onChanged: () => void }) {
  const { api, info } = useSession();
  const [now, setNow] = useState(readAt);
  const [done, setDone] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [taking, setTaking] = useState<string | null>(null);
  const mineHeading = useRef<HTMLHeadingElement>(null);
  const unassignedHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setNow(readAt);
    // A lead logged here is gone from the server's answer too; forgetting it keeps the set small.
    setDone(new Set());
  }, [queue, readAt]);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);

  const mine = queue.mine.filter((lead) => !done.has(lead.id));
  const unassigned = queue.unassigned.filter((lead) => !done.has(lead.id));
  const leave = (lead: QueueLead, words: string, focus: RefObject<HTMLHeadingElement | null>) => {
    setDone((previous) => new Set(previous).add(lead.id));
    setStatus(words);
    focus.current?.focus();
    onChanged();
  };

  async function take(lead: QueueLead) {
    setTaking(lead.id);
    setError('');
    setStatus('');
    try {
      await api.setOwner(lead.id, info.id);
      setStatus(`${nameOf(lead)} is yours now: the lead is under "My leads to call".`);
      mineHeading.current?.focus();
      onChanged();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setTaking(null);
    }
  }

  const card = (lead: QueueLead, heading: RefObject<HTMLHeadingElement | null>, unowned: boolean) => (
    <LeadCard
      key={lead.id}
      lead={lead}
      minutes={lead.sales.clockRunning ? lead.sales.clockMinutes + Math.max(0, now - readAt) / 60_000 : lead.sales.clockMinutes}
      now={now}
      onLogged={(words) => leave(lead, words, heading)}
      take={unowned ? () => void take(lead) : undefined}
      taking={taking === lead.id}
    />
  );

  return (
    <>
      <p className="hours">
        Clocks run {queue.businessHours}; {queue.openNow ? 'open now' : 'closed now'}.
      </p>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      {mine.length === 0 && unassigned.length === 0 ? <p className="empty">Nobody is waiting for a call.</p> : null}
      <section aria-labelledby="call-now-mine">
        <h2 id="call-now-mine" ref={mineHeading} tabIndex={-1}>
          My leads to call ({mine.length})
        </h2>
        {mine.length === 0 ? <p className="empty">None of your leads is waiting.</p> : null}
        <ul className="cards">{mine.map((lead) => card(lead, mineHeading, false))}</ul>
      </section>
      <section aria-labelledby="call-now-unassigned">
        <h2 id="call-now-unassigned" ref={unassignedHeading} tabIndex={-1}>
          Not assigned yet ({unassigned.length})
        </h2>
        {unassigned.length === 0 ? <p className="empty">Every lead has an owner.</p> : null}
        <ul className="cards">{unassigned.map((lead) => card(lead, unassignedHeading, true))}</ul>
      </section>
    </>
  );
}

const nameOf = (lead: QueueLead) => lead.name || lead.email || lead.phone;

function LeadCard({
  lead,
  minutes,
  now,
  onLogged,
  take,
  taking,
}: {
  lead: QueueLead;
  minutes: number;
  now: number;
  onLogged: (words: string) => void;
  take: (() => void) | undefined;
  taking: boolean;
}) {
  const { can } = useSession();
  const headingId = `lead-card-${lead.id}`;
  return (
    <li className="lead-card" aria-labelledby={headingId}>
      <Clock lead={lead} minutes={minutes} now={now} />
      <h3 id={headingId} className="lead-card-name">
        <Link to={`/leads/${encodeURIComponent(lead.id)}`}>
          <VisitorText>{nameOf(lead)}</VisitorText>
        </Link>
      </h3>
      <p className="lead-card-meta">
        {lead.company ? (
          <>
            <VisitorText>{lead.company}</VisitorText> ·{' '}
          </>
        ) : null}
        {lead.form}
      </p>
      {lead.callbackRequested ? <p className="badge badge-callback">Asked for a call-back now</p> : null}
      {lead.asked ? (
        <p className="lead-card-asked">
          <VisitorText>{lead.asked}</VisitorText>
        </p>
      ) : null}
      <TouchActions
        leadId={lead.id}
        who={nameOf(lead)}
        phone={lead.phone}
        email={lead.email}
        onLogged={(touch) =>
          onLogged(`${nameOf(lead)}: ${OUTCOME_LABELS[touch.outcome].toLowerCase()}, logged. The lead has left the list.`)
        }
      >
        {take && can('leads:assign') ? (
          <button type="button" className="button" disabled={taking} onClick={take}>
            {taking ? 'Taking it…' : 'Take it'}
            <span className="visually-hidden"> ({nameOf(lead)})</span>
          </button>
        ) : null}
      </TouchActions>
    </li>
  );
}

/** "Waiting 12 min" (late past 5 minutes), or when the clock will start outside business hours. */
function Clock({ lead, minutes, now }: { lead: QueueLead; minutes: number; now: number }) {
  const { sales } = lead;
  if (!sales.clockRunning && sales.firstTouchAt === null && Date.parse(sales.clockStartsAt) > now)
    return <p className="clock clock-later">Clock starts at {formatClockStart(sales.clockStartsAt, now)}</p>;
  const urgency = clockUrgency(minutes);
  return (
    <p className={`clock clock-${urgency}`}>
      Waiting {formatClock(minutes)}
      {urgency === 'late' ? <span className="visually-hidden"> (over 5 minutes)</span> : null}
    </p>
  );
}
