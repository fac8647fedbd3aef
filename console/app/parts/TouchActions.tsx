// "Call" and "E-mail" as one tap each: a tel: and a mailto: link, so the phone or the mail program
// opens at once. Tapping either then asks how it went, in a small inline choice, and logs that as a
// touch (POST /leads/:id/touches): a logged call or e-mail is what stops the lead's clock, and asking
// right after the tap is when the answer is fresh. Without the right to log (leads:work) the links
// stay and nothing is asked.
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { LeadSalesView, TouchInput, TouchOutcome } from '../../api-types.ts';
import { messageOf } from '../api.ts';
import { useSession } from '../session.tsx';
import { OUTCOME_LABELS } from './format.tsx';
import { ErrorMessage } from './messages.tsx';

const CALL_OUTCOMES: readonly TouchOutcome[] = ['reached', 'left-voicemail', 'no-answer', 'wrong-number'];

/** The digits and leading + a tel: link dials; spaces, dots and brackets are for reading only. */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

// An address as a mail program takes it in a mailto: link: no `?`, `&`, `#`, `%`, comma or space,
// which would add a second recipient, a hidden copy, a subject or a body of the sender's choosing.
const PLAIN_ADDRESS = /^[A-Za-z0-9._'+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/;

/**
 * The mailto: link for a lead's address, or undefined when it is not one plain address. A lead kept
 * as spam holds whatever a bot typed, and `x@example.com?bcc=…&body=…` would otherwise open the
 * salesperson's mail program with a copy to someone else and words that are not theirs.
 */
export function mailtoHref(email: string): string | undefined {
  const address = email.trim();
  return PLAIN_ADDRESS.test(address) ? `mailto:${address}` : undefined;
}

export function TouchActions({
  leadId,
  who,
  phone,
  email,
  onLogged,
  children,
}: {
  leadId: string;
  /** The lead's name (or address), so each link says whom it calls. */
  who: string;
  phone: string;
  email: string;
  onLogged: (touch: TouchInput, sales: LeadSalesView) => void;
  /** Further buttons shown beside the links ("Take it"). */
  children?: ReactNode;
}) {
  const { api, can } = useSession();
  const [asking, setAsking] = useState<TouchInput['kind'] | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState('');
  const questionRef = useRef<HTMLFieldSetElement>(null);
  const links = { call: useRef<HTMLAnchorElement>(null), email: useRef<HTMLAnchorElement>(null) };
  const errorId = useId();
  const mayLog = can('leads:work');
  const emailHref = mailtoHref(email);

  // The question takes the focus when it appears, so a keyboard or screen reader user lands on it.
  useEffect(() => {
    if (asking) questionRef.current?.focus();
  }, [asking]);

  async function log(touch: TouchInput) {
    setSaving(true);
    setError('');
    try {
      const sales = await api.logTouch(leadId, touch);
      setAsking(null);
      // The question goes away: the focus returns to the link it came from.
      links[touch.kind].current?.focus();
      onLogged(touch, sales);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  const outcomes = asking === 'call' ? CALL_OUTCOMES : (['sent'] as const);
  return (
    <>
      <div className="card-actions">
        {phone ? (
          <a className="button button-primary" ref={links.call} href={telHref(phone)} onClick={() => mayLog && setAsking('call')}>
            Call<span className="visually-hidden"> {who}</span>
          </a>
        ) : null}
        {emailHref ? (
          <a className="button" ref={links.email} href={emailHref} onClick={() => mayLog && setAsking('email')}>
            E-mail<span className="visually-hidden"> {who}</span>
          </a>
        ) : null}
        {children}
      </div>
      {asking ? (
        <fieldset className="outcome" ref={questionRef} tabIndex={-1} aria-describedby={error ? errorId : undefined}>
          <legend>{asking === 'call' ? `How did the call to ${who} go?` : `Did the e-mail to ${who} go out?`}</legend>
          <div className="card-actions">
            {outcomes.map((outcome) => (
              <button key={outcome} type="button" className="button" disabled={saving} onClick={() => void log({ kind: asking, outcome })}>
                {OUTCOME_LABELS[outcome]}
              </button>
            ))}
            <button
              type="button"
              className="button button-quiet"
              disabled={saving}
              onClick={() => {
                links[asking].current?.focus();
                setAsking(null);
              }}
            >
              {asking === 'call' ? 'I did not call' : 'I did not send it'}
            </button>
          </div>
          <ErrorMessage id={errorId}>{error}</ErrorMessage>
        </fieldset>
      ) : null}
    </>
  );
}
