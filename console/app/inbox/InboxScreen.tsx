// The inbox: filters and a search kept in the address, the leads newest first with "Older leads"
// appending the next page, and the actions a role allows: retry selected (after a confirmation that
// counts what will be sent and skipped) or every failed lead, export what the filter shows, erase a
// person's leads. Spam is never here: it has a view of its own. Each row shows where the sale stands,
// the phone (a tel: link) and the owner beside the CRM delivery, which is a different thing.
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { LeadFilter, LeadSummary, RetryResult } from '../../api-types.ts';
import { exportUrl, messageOf } from '../api.ts';
import { Dialog } from '../parts/Dialog.tsx';
import { StatusBadge } from '../parts/format.tsx';
import { ErrorMessage, StatusMessage } from '../parts/messages.tsx';
import { usePages } from '../parts/use-pages.ts';
import { useSession } from '../session.tsx';
import { EraseDialog } from './EraseDialog.tsx';
import { filterFromQuery, inboxQuery, queryFromFilter } from './filter-query.ts';
import { describeAllFailedRetried, describePlan, describeRetried, planRetry, plannedCount, type RetryPlan } from './retry-words.ts';
import { FilterForm } from './FilterForm.tsx';
import { ContactCells, NameCell, ReceivedCell } from '../parts/lead-cells.tsx';
import { SalesCells } from '../parts/sales-cells.tsx';
import { ScrollingTable } from '../parts/ScrollingTable.tsx';

export function InboxScreen() {
  const { api, can } = useSession();
  const [query, setQuery] = useSearchParams();
  const filter = filterFromQuery(query);
  const filterKey = queryFromFilter(filter).toString();
  const listing = usePages<LeadSummary>(async (after) => {
    const page = await api.leads(inboxQuery(filter), after);
    return { items: page.leads, next: page.next };
  }, filterKey);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [status, setStatus] = useState('');
  const [actionError, setActionError] = useState('');
  const [busy, setBusy] = useState(false);
  const [erasing, setErasing] = useState(false);
  const [confirming, setConfirming] = useState<RetryPlan | null>(null);
  const mayRetry = can('leads:retry');

  // Another filter shows other leads: what was selected under the last one is let go.
  useEffect(() => setSelected(new Set()), [filterKey]);

  async function retry(target: { ids: string[] } | { allFailed: true }) {
    setConfirming(null);
    setBusy(true);
    setStatus('');
    setActionError('');
    try {
      const result: RetryResult = await api.retry(target);
      setSelected(new Set());
      setStatus('allFailed' in target ? describeAllFailedRetried(result) : describeRetried(result));
      listing.reload();
    } catch (failure) {
      setActionError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  }

  const toggle = (id: string, on: boolean) =>
    setSelected((previous) => {
      const next = new Set(previous);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const allSelected = listing.items.length > 0 && listing.items.every((lead) => selected.has(lead.id));

  return (
    <>
      <h1>Inbox</h1>
      <FilterForm key={filterKey} filter={filter} onApply={(next: LeadFilter) => setQuery(queryFromFilter(next))} />

      <div className="toolbar" role="group" aria-label="Actions">
        {mayRetry ? (
          <>
            <button
              type="button"
              className="button"
              disabled={busy || selected.size === 0}
              onClick={() => setConfirming(planRetry(listing.items.filter((lead) => selected.has(lead.id))))}
            >
              Retry selected{selected.size > 0 ? ` (${selected.size})` : ''}
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => void retry({ allFailed: true })}>
              Retry every failed lead
            </button>
          </>
        ) : null}
        {can('leads:export') ? (
          <>
            <a className="button" href={exportUrl(inboxQuery(filter), 'csv')} download>
              Export CSV
            </a>
            <a className="button" href={exportUrl(inboxQuery(filter), 'json')} download>
              Export JSON
            </a>
          </>
        ) : null}
        {can('leads:erase') ? (
          <button type="button" className="button button-danger" onClick={() => setErasing(true)}>
            Erase by e-mail
          </button>
        ) : null}
      </div>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{actionError}</ErrorMessage>

      {listing.status === 'loading' ? <p role="status">Loading leads…</p> : null}
      <ErrorMessage>{listing.error}</ErrorMessage>
      {listing.status === 'ready' && listing.items.length === 0 ? <p className="empty">No leads match these filters.</p> : null}
      {listing.items.length > 0 ? (
        <ScrollingTable caption="Leads, newest first">
          <thead>
            <tr>
              {mayRetry ? (
                <th scope="col">
                  <input
                    type="checkbox"
                    aria-label="Select every lead shown"
                    checked={allSelected}
                    onChange={(event) => setSelected(event.target.checked ? new Set(listing.items.map((lead) => lead.id)) : new Set())}
                  />
                </th>
              ) : null}
              {/* The sale and the phone come right after the name, so a phone's screen shows them without scrolling sideways. */}
              <th scope="col">Received</th>
              <th scope="col">Name</th>
              <th scope="col">Sale</th>
              <th scope="col">Phone</th>
              <th scope="col">Owner</th>
              <th scope="col">CRM delivery</th>
              <th scope="col">E-mail</th>
              <th scope="col">Company</th>
              <th scope="col">Form</th>
            </tr>
          </thead>
          <tbody>
            {listing.items.map((lead) => (
              <tr key={lead.id}>
                {mayRetry ? (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Select the lead from ${lead.name || lead.email}`}
                      checked={selected.has(lead.id)}
                      onChange={(event) => toggle(lead.id, event.target.checked)}
                    />
                  </td>
                ) : null}
                <ReceivedCell lead={lead} />
                <NameCell lead={lead} />
                <SalesCells lead={lead} />
                <td>
                  <StatusBadge status={lead.status} />
                </td>
                <ContactCells lead={lead} />
              </tr>
            ))}
          </tbody>
        </ScrollingTable>
      ) : null}
      {listing.status === 'ready' && listing.next ? (
        <button type="button" className="button" disabled={listing.loadingOlder} onClick={() => void listing.loadOlder()}>
          {listing.loadingOlder ? 'Loading older leads…' : 'Older leads'}
        </button>
      ) : null}
      {confirming ? (
        <Dialog title="Retry the selected leads" onClose={() => setConfirming(null)}>
          <p role="status">{describePlan(confirming)}</p>
          {plannedCount(confirming) === 0 ? (
            <p>
              Spam goes to the CRM only once it is marked "Not spam" in the Spam view; a delivered lead only by "Send again" on its own
              page.
            </p>
          ) : null}
          <div className="dialog-actions">
            {plannedCount(confirming) > 0 ? (
              <button type="button" className="button button-primary" onClick={() => void retry({ ids: [...selected] })}>
                Send {plannedCount(confirming) === 1 ? '1 lead' : `${plannedCount(confirming)} leads`}
              </button>
            ) : null}
            <button type="button" className="button" onClick={() => setConfirming(null)}>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
      {erasing ? (
        <EraseDialog
          onClose={() => setErasing(false)}
          onErased={(message) => {
            setErasing(false);
            setStatus(message);
            listing.reload();
          }}
        />
      ) : null}
    </>
  );
}
