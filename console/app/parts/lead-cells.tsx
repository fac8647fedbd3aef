// The cells every list of leads shares (the inbox and the spam view), so both show a lead alike:
// its time links to its page, and text the visitor typed is isolated from the cells around it.
import { Link } from 'react-router-dom';
import type { LeadSummary } from '../../api-types.ts';
import { formatTime, SALES_STATUS_LABELS, VisitorText } from './format.tsx';
import { telHref } from './TouchActions.tsx';

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

/** Where the sale stands, the phone (one tap to call) and the owner; a dash where the server sent none. */
export function SalesCells({ lead }: { lead: LeadSummary }) {
  return (
    <>
      <td>{lead.salesStatus ? SALES_STATUS_LABELS[lead.salesStatus] : '–'}</td>
      <td className="nowrap">
        {lead.phone ? (
          <a href={telHref(lead.phone)}>
            <VisitorText>{lead.phone}</VisitorText>
          </a>
        ) : (
          '–'
        )}
      </td>
      <td>{lead.owner ? lead.owner.email : lead.owner === null ? 'Nobody yet' : '–'}</td>
    </>
  );
}
