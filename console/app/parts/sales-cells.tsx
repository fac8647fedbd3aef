// The inbox's sales cells: where the sale stands, the phone as one tap to call, and the owner,
// beside the CRM delivery, which is a different thing.
import type { LeadSummary } from '../../api-types.ts';
import { SALES_STATUS_LABELS, VisitorText } from './format.tsx';
import { telHref } from './TouchActions.tsx';

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
