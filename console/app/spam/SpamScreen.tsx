// Spam, in a view of its own so it never mixes with the inbox yet is easy to look through: each
// lead judged spam, newest first, with why in plain words and "Not spam", which sends a real lead
// on to the inbox and the CRM. `?from=YYYY-MM-DD` (the health screen's link) shows only what
// arrived since that day, the same leads its count counted; `&to=YYYY-MM-DD` ends the range with
// that day (the daily spam notification's link names one day as both, so it lists the day's count).
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { LeadSummary } from '../../api-types.ts';
import { messageOf } from '../api.ts';
import { ErrorMessage, StatusMessage } from '../parts/messages.tsx';
import { ContactCells, NameCell, ReceivedCell } from '../parts/lead-cells.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';
import { usePages } from '../parts/use-pages.ts';
import { useSession } from '../session.tsx';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function SpamScreen() {
  const { api, can } = useSession();
  const [query] = useSearchParams();
  const dayOf = (name: string) => {
    const asked = query.get(name) ?? '';
    return DAY.test(asked) ? asked : undefined;
  };
  const from = dayOf('from');
  // A range that ends before it starts would list nothing: the end is left out instead.
  const to = from !== undefined && (dayOf('to') ?? '') < from ? undefined : dayOf('to');
  const listing = usePages<LeadSummary>(
    async (after) => {
      const page = await api.leads({ spam: 'yes', ...(from ? { from } : {}), ...(to ? { to } : {}) }, after);
      return { items: page.leads, next: page.next };
    },
    `${from ?? ''}/${to ?? ''}`,
  );
  const range =
    from !== undefined && from === to
      ? { shown: `Received on ${from} (UTC).`, none: 'on that day' }
      : from !== undefined && to !== undefined
        ? { shown: `Received from ${from} to ${to} (UTC).`, none: 'in those days' }
        : from !== undefined
          ? { shown: `Received on or after ${from} (UTC).`, none: 'since then' }
          : to !== undefined
            ? { shown: `Received on or before ${to} (UTC).`, none: 'until then' }
            : undefined;
  const [status, setStatus] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const mayMark = can('leads:mark-spam');

  async function notSpam(lead: LeadSummary) {
    setBusy(true);
    setStatus('');
    setError('');
    try {
      await api.markSpam(lead.id, false);
      setStatus(
        `The lead from ${lead.name || lead.email || 'an unnamed visitor'} is no longer spam: it is in the inbox and will be sent to the CRM.`,
      );
      listing.reload();
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <h1>Spam</h1>
      <p>
        Leads judged spam are kept here, apart from the inbox, and never sent to the CRM. If a real lead is among them, choose "Not spam":
        it moves to the inbox and is sent to the CRM.
      </p>
      {range ? (
        <p>
          {range.shown} <Link to="/spam">Show all spam</Link>
        </p>
      ) : null}
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
      {listing.status === 'loading' ? <p role="status">Loading spam…</p> : null}
      <ErrorMessage>{listing.error}</ErrorMessage>
      {listing.status === 'ready' && listing.items.length === 0 ? <p className="empty">No spam{range ? ` ${range.none}` : ''}.</p> : null}
      {listing.items.length > 0 ? (
        <ScrollingTable caption="Spam, newest first">
          <thead>
            <tr>
              <th scope="col">Received</th>
              <th scope="col">Name</th>
              <th scope="col">Why it was judged spam</th>
              {mayMark ? <th scope="col">Action</th> : null}
              <th scope="col">E-mail</th>
              <th scope="col">Company</th>
              <th scope="col">Form</th>
            </tr>
          </thead>
          <tbody>
            {listing.items.map((lead) => (
              <tr key={lead.id}>
                <ReceivedCell lead={lead} />
                <NameCell lead={lead} />
                <td>{lead.spamSignals.join(' ') || 'Not recorded'}</td>
                {mayMark ? (
                  <td>
                    <button
                      type="button"
                      className="button"
                      disabled={busy}
                      aria-label={`Not spam: the lead from ${lead.name || lead.email}`}
                      onClick={() => void notSpam(lead)}
                    >
                      Not spam
                    </button>
                  </td>
                ) : null}
                <ContactCells lead={lead} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      ) : null}
      {listing.status === 'ready' && listing.next ? (
        <button type="button" className="button" disabled={listing.loadingOlder} onClick={() => void listing.loadOlder()}>
          {listing.loadingOlder ? 'Loading older spam…' : 'Older spam'}
        </button>
      ) : null}
    </>
  );
}
