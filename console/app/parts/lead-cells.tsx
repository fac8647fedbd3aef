// The cells every list of leads shares (the inbox and the spam view), so both show a lead alike:
// its time links to its page, and text the visitor typed is isolated from the cells around it.
import { Link } from 'react-router-dom';
import type { LeadSummary } from '../../api-types.ts';
import { CallbackBadge } from './CallbackBadge.tsx';
import { formatTime, VisitorText } from './format.tsx';

export function ReceivedCell({ lead }: { lead: LeadSummary }) {
  return (
    <td>
      <Link to={`/leads/${encodeURIComponent(lead.id)}`}>{formatTime(lead.receivedAt)}</Link>
    </td>
  );
}

export function NameCell({ lead }: { lead: LeadSummary }) {
  return (
    <td>
      <VisitorText>{lead.name}</VisitorText>
      {lead.callbackRequested ? (
        <>
          {' '}
          <CallbackBadge requested />
        </>
      ) : null}
    </td>
  );
}

/** E-mail, company and form, in that order. */
export function ContactCells({ lead }: { lead: LeadSummary }) {
  return (
    <>
      <td>
        <VisitorText>{lead.email}</VisitorText>
      </td>
      <td>
        <VisitorText>{lead.company}</VisitorText>
      </td>
      <td>{lead.form}</td>
    </>
  );
}
