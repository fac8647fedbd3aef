// The sales side of one lead, at the top of its page: how long it waited for a person (or when its
// clock starts), one tap to call or e-mail with the outcome logged, who owns it, where the sale
// stands (a lost sale says why), notes, whether the visitor asked to be called back (with the words
// they agreed to), and one timeline of everything done about it. The CRM delivery is elsewhere on
// the page and in other words: a lead the CRM has is not a sale.
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { SALES_STATUSES, type LeadWithSales, type SalesPerson, type SalesStatus, type TimelineEntry } from '../../api-types.ts';
import { ApiError, messageOf } from '../api.ts';
import { Field } from '../parts/Field.tsx';
import {
  clockUrgency,
  formatClock,
  formatClockStart,
  formatTime,
  OUTCOME_LABELS,
  SALES_STATUS_LABELS,
  VisitorText,
} from '../parts/format.tsx';
import { LoadState, StatusMessage } from '../parts/messages.tsx';
import { TouchActions } from '../parts/TouchActions.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';

export const NOTE_MAX = 2000;
const LOST_REASON_REQUIRED = 'Say why the sale was lost (for example: price, timing, chose another firm).';
const NOTE_REQUIRED = 'Write the note first.';
const NOTE_TOO_LONG = `Keep the note under ${NOTE_MAX} characters, or split it in two.`;

export function SalesPanel({ lead, onChanged }: { lead: LeadWithSales; onChanged: () => void }) {
  const { can } = useSession();
  const [status, setStatus] = useState('');
  const { sales, callback } = lead;
  const who = lead.name || lead.email;
  const changed = (words: string) => {
    setStatus(words);
    onChanged();
  };
  if (lead.queue === 'outside' || lead.queue === 'placing') return <OutsideQueue lead={lead} onChanged={changed} status={status} />;
  return (
    <section className="panel" aria-labelledby="lead-sales">
      <h2 id="lead-sales">Sales</h2>
      <ClockLine lead={lead} />
      {callback.requested ? (
        <div className="callback">
          <p>
            <span className="badge badge-callback">Asked for a call-back now</span>
            {callback.consentAt ? ` on ${formatTime(callback.consentAt)}` : ''}
          </p>
          {callback.consentText ? (
            <blockquote className="consent">
              <p className="timeline-label">The words they agreed to:</p>
              <p>{callback.consentText}</p>
            </blockquote>
          ) : null}
        </div>
      ) : null}
      <TouchActions
        leadId={lead.id}
        who={who}
        phone={lead.phone}
        email={lead.email}
        onLogged={(touch) => changed(`Logged: ${OUTCOME_LABELS[touch.outcome].toLowerCase()}.`)}
      >
        {lead.crmUrl ? (
          <a className="button" href={lead.crmUrl} target="_blank" rel="noreferrer noopener">
            Open in the CRM<span className="visually-hidden"> (opens a new tab)</span>
          </a>
        ) : null}
      </TouchActions>
      <StatusMessage>{status}</StatusMessage>
      <div className="sales-forms">
        {can('leads:assign') ? (
          <OwnerForm lead={lead} onChanged={changed} />
        ) : (
          <p>
            <strong>Owner:</strong> {sales.owner ? sales.owner.email : 'nobody yet'}
          </p>
        )}
        {can('leads:work') ? (
          <StatusForm lead={lead} onChanged={changed} />
        ) : (
          <p>
            <strong>Sales status:</strong> {SALES_STATUS_LABELS[sales.status]}
            {sales.status === 'lost' && sales.lostReason ? ` (${sales.lostReason})` : ''}
          </p>
        )}
      </div>
      {sales.joinedTo ? (
        <p>
          This is a repeat: it joined the <Link to={`/leads/${encodeURIComponent(sales.joinedTo)}`}>earlier lead of the same person</Link>,
          whose clock and owner it shares.
        </p>
      ) : null}
      {lead.joined.length > 0 ? (
        <div>
          <p>Also sent:</p>
          <ul>
            {lead.joined.map((joined) => (
              <li key={joined.id}>
                <Link to={`/leads/${encodeURIComponent(joined.id)}`}>
                  {joined.form}, {formatTime(joined.receivedAt)}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {can('leads:work') ? <NoteForm lead={lead} onChanged={changed} /> : null}
      <Timeline entries={lead.timeline} />
    </section>
  );
}

/**
 * A lead not in the sales queue: one that arrived moments ago is being given its owner; an older one
 * (stored before the queue existed) has no owner, status or clock until someone gives it an owner.
 */
function OutsideQueue({ lead, onChanged, status }: { lead: LeadWithSales; onChanged: (words: string) => void; status: string }) {
  const { can } = useSession();
  return (
    <section className="panel" aria-labelledby="lead-sales">
      <h2 id="lead-sales">Sales</h2>
      {lead.queue === 'placing' ? (
        <p>This lead arrived moments ago and is being given its owner. Look again in a few seconds.</p>
      ) : (
        <p>
          This lead came before the sales queue, so it has no owner, sales status or waiting time. Give it an owner to put it on their “Call
          now” list: its waiting time starts then, and the speed figures leave it out.
        </p>
      )}
      <StatusMessage>{status}</StatusMessage>
      {lead.queue === 'outside' && can('leads:assign') ? <OwnerForm lead={lead} onChanged={onChanged} /> : null}
      <Timeline entries={lead.timeline} />
    </section>
  );
}

function ClockLine({ lead }: { lead: LeadWithSales }) {
  const { sales } = lead;
  if (sales.firstTouchAt)
    return (
      <p>
        First touched {formatTime(sales.firstTouchAt)}, after {formatClock(sales.clockMinutes)} of business hours.
      </p>
    );
  if (!sales.clockRunning && Date.parse(sales.clockStartsAt) > Date.now())
    return (
      <p className="clock clock-later">
        Nobody has called yet. The clock starts at {formatClockStart(sales.clockStartsAt, Date.now())}, when business hours begin.
      </p>
    );
  return (
    <p className={`clock clock-${clockUrgency(sales.clockMinutes)}`}>
      Waiting {formatClock(sales.clockMinutes)} for a first call or e-mail.
    </p>
  );
}

/** Runs a change, with its error shown by the form. */
function useChange() {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const [fields, setFields] = useState<Record<string, string>>({});
  async function run(change: () => Promise<void>) {
    setSaving(true);
    setError('');
    setFields({});
    try {
      await change();
    } catch (failure) {
      if (failure instanceof ApiError && Object.keys(failure.fields).length > 0) setFields(failure.fields);
      else setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }
  return { saving, error, fields, setFields, run };
}

function OwnerForm({ lead, onChanged }: { lead: LeadWithSales; onChanged: (words: string) => void }) {
  const { api } = useSession();
  const people = useLoad(api.people, 'people');
  const [ownerId, setOwnerId] = useState(lead.sales.owner ? lead.sales.owner.id : '');
  const change = useChange();

  function submit(event: FormEvent) {
    event.preventDefault();
    const chosen = ownerId === '' ? null : ownerId;
    void change.run(async () => {
      const sales = await api.setOwner(lead.id, chosen);
      onChanged(
        sales.owner ? `The lead now belongs to ${sales.owner.email}.` : 'The lead has no owner now: it waits under "Not assigned yet".',
      );
    });
  }

  return (
    <form className="inline-form" onSubmit={submit}>
      <LoadState loaded={people} what="the sales team">
        {(list: SalesPerson[]) => (
          <Field label="Owner" error={change.fields.ownerId ?? change.error}>
            {(control) => (
              <div className="inline-control">
                <select {...control} value={ownerId} onChange={(event) => setOwnerId(event.target.value)}>
                  <option value="">Nobody yet</option>
                  {list.map((person) => (
                    <option key={person.id} value={person.id}>
                      {person.email}
                      {person.away ? ' (away)' : person.availableNow ? '' : ' (off shift)'}
                    </option>
                  ))}
                </select>
                <button type="submit" className="button" disabled={change.saving}>
                  {change.saving ? 'Saving…' : 'Change owner'}
                </button>
              </div>
            )}
          </Field>
        )}
      </LoadState>
    </form>
  );
}

function StatusForm({ lead, onChanged }: { lead: LeadWithSales; onChanged: (words: string) => void }) {
  const { api } = useSession();
  const [status, setStatus] = useState<SalesStatus>(lead.sales.status);
  const [reason, setReason] = useState(lead.sales.lostReason ?? '');
  const reasonRef = useRef<HTMLInputElement>(null);
  const change = useChange();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (status === 'lost' && reason.trim() === '') {
      change.setFields({ lostReason: LOST_REASON_REQUIRED });
      reasonRef.current?.focus();
      return;
    }
    void change.run(async () => {
      const sales = await api.setSalesStatus(lead.id, status, status === 'lost' ? reason.trim() : undefined);
      onChanged(`Sales status: ${SALES_STATUS_LABELS[sales.status].toLowerCase()}.`);
    });
  }

  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field label="Sales status" error={change.fields.status ?? change.error}>
        {(control) => (
          <select
            {...control}
            value={status}
            onChange={(event) => {
              change.setFields({});
              setStatus(event.target.value as SalesStatus);
            }}
          >
            {SALES_STATUSES.map((value) => (
              <option key={value} value={value}>
                {SALES_STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      {status === 'lost' ? (
        <Field label="Why was it lost?" error={change.fields.lostReason}>
          {(control) => (
            <input
              {...control}
              ref={reasonRef}
              type="text"
              maxLength={200}
              required
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          )}
        </Field>
      ) : null}
      <button type="submit" className="button" disabled={change.saving}>
        {change.saving ? 'Saving…' : 'Save the status'}
      </button>
    </form>
  );
}

function NoteForm({ lead, onChanged }: { lead: LeadWithSales; onChanged: (words: string) => void }) {
  const { api } = useSession();
  const [text, setText] = useState('');
  const noteRef = useRef<HTMLTextAreaElement>(null);
  const change = useChange();

  function submit(event: FormEvent) {
    event.preventDefault();
    const note = text.trim();
    const problem = note === '' ? NOTE_REQUIRED : note.length > NOTE_MAX ? NOTE_TOO_LONG : '';
    if (problem) {
      change.setFields({ text: problem });
      noteRef.current?.focus();
      return;
    }
    void change.run(async () => {
      await api.addNote(lead.id, note);
      setText('');
      onChanged('Note added to the timeline.');
      noteRef.current?.focus();
    });
  }

  return (
    <form aria-label="Add a note" onSubmit={submit} noValidate>
      <Field label="Note" hint="Only the team sees notes. They go on the timeline below." error={change.fields.text ?? change.error}>
        {(control) => <textarea {...control} ref={noteRef} rows={3} value={text} onChange={(event) => setText(event.target.value)} />}
      </Field>
      <button type="submit" className="button" disabled={change.saving}>
        {change.saving ? 'Adding…' : 'Add the note'}
      </button>
    </form>
  );
}

/** Newest first: what happened last is what the next person to call needs. */
function Timeline({ entries }: { entries: TimelineEntry[] }) {
  const newestFirst = [...entries].sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
  return (
    <>
      <h3>Timeline, newest first</h3>
      {newestFirst.length === 0 ? (
        <p className="empty">Nothing done yet.</p>
      ) : (
        <ol className="timeline" aria-label="Timeline, newest first">
          {newestFirst.map((entry, index) => (
            <li key={`${entry.at}-${index}`} className="timeline-item">
              <p>
                <strong>{formatTime(entry.at)}</strong>: {entry.text}
                <span className="timeline-label"> ({entry.actor === 'system' ? 'automatic' : entry.actor})</span>
              </p>
              {entry.note !== null ? (
                <p className="field-value note">
                  <VisitorText>{entry.note}</VisitorText>
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
