// The one form engine: runs any LeadFormSpec through the form states —
// rate-limit check, validation with per-field errors and focus, sending, toasts, success and failure.
import { startTransition, useCallback, useEffect, useMemo, useReducer, useRef, useState, type FormEvent, type RefObject } from 'react';
import { useTheme } from '@emotion/react';
import { flushSync } from 'react-dom';
import { useLocation, useNavigate } from 'react-router-dom';
import { useSite } from '../ui/page/site-context.tsx';
import { captureVisitAttribution } from '../ui/page/visit-attribution.ts';
import { FORM_SHOWN_AT_ATTRIBUTE } from '../ui/page/page-markers.ts';
import { createBrowserPayloadContext, readBrowserStorage } from './browser-world.ts';
import { emptyValues, listFields, readPrefill, type FieldName, type LeadFormSpec } from './form-spec.ts';
import { createInitialState, createLeadFormReducer, type LeadFormState } from './form-state.ts';
import { showToast } from './notify.ts';
import { createRateLimiter } from './rate-limit.ts';
import type { LeadFormValuesById } from '../lead/validation.ts';
import { HONEYPOT_FIELD, type LeadFormId } from '../lead/rules.ts';
import { preloadValidation, runSubmission } from './submit-flow.ts';
import { submitLead } from './submit-lead.ts';
import { nextTask } from '../ui/page/when-idle.ts';
import { toastFor } from './toasts.ts';
import { CALLBACK_FIELDS } from '../lead/callback-consent.ts';
import type { SiteContent } from '../generated/content-types.ts';

/** The owner's "call me back now" wording, from the site settings. */
export type CallbackConsentSettings = NonNullable<SiteContent['callbackConsent']>;

export interface LeadFormOptions<F extends LeadFormId> {
  /** Runs after a successful (or demo) submission with the parsed values, before any redirect. */
  readonly onSuccess?: (data: LeadFormValuesById[F], details: { readonly demo: boolean; readonly leadId?: string | undefined }) => void;
}

export interface LeadFormEngine<F extends LeadFormId> {
  readonly spec: LeadFormSpec<F>;
  readonly state: LeadFormState<FieldName<F>>;
  /** PUBLIC_LEAD_ENDPOINT: the no-JavaScript form posts here; '' is demo mode. */
  readonly endpoint: string;
  /** False in the prerendered HTML (native validation, plain POST); true once hydrated. */
  readonly enhanced: boolean;
  readonly submitting: boolean;
  readonly formRef: RefObject<HTMLFormElement | null>;
  readonly setValue: (field: FieldName<F>, value: string) => void;
  readonly setHoneypot: (value: string) => void;
  /** Ticks or unticks "call me back now". */
  readonly setCallback: (ticked: boolean) => void;
  /** The owner's "call me back now" wording; the form shows no tick box without one. */
  readonly callbackWording: CallbackConsentSettings | undefined;
  readonly handleSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** Empties the form (as after success) and moves focus to its first field. */
  readonly reset: () => void;
}

interface FocusRequest {
  readonly field: string;
  readonly sequence: number;
}

export function useLeadForm<F extends LeadFormId>(spec: LeadFormSpec<F>, options: LeadFormOptions<F> = {}): LeadFormEngine<F> {
  const { leadEndpoint: endpoint, callbackConsent: callbackWording } = useSite();
  const navigate = useNavigate();
  const theme = useTheme();
  const { search } = useLocation();
  const reducer = useMemo(() => createLeadFormReducer(emptyValues(spec)), [spec]);
  const [state, dispatch] = useReducer(reducer, spec, (initialSpec) => createInitialState(emptyValues(initialSpec)));
  const [enhanced, setEnhanced] = useState(false);
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const formRef = useRef<HTMLFormElement | null>(null);
  // Submit handlers read the latest state and ignore presses while a submission is under way.
  const stateRef = useRef(state);
  stateRef.current = state;
  const busyRef = useRef(false);
  // Counts the submissions whose outcome is on screen; the button takes the next press from then on.
  const [settled, setSettled] = useState(0);
  useEffect(() => {
    busyRef.current = false;
  }, [settled]);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  // The updates the form makes to itself as it hydrates (enhanced, prefilled, what was typed) are one
  // transition: React renders them in short slices, so the visitor's next key is not kept waiting
  // behind a re-render of the whole form on a slow phone. A key typed meanwhile is applied first.
  useEffect(() => {
    // The form may have been on screen (and typed into) for a while before it hydrated.
    const shownAt = Number(formRef.current?.closest(`[${FORM_SHOWN_AT_ATTRIBUTE}]`)?.getAttribute(FORM_SHOWN_AT_ATTRIBUTE));
    startTransition(() => {
      setEnhanced(true);
      dispatch({ type: 'shown', atMs: Number.isFinite(shownAt) && shownAt > 0 && shownAt <= Date.now() ? shownAt : Date.now() });
    });
    // The visit is attributed when a form is first shown as well, in case the page view did not record it (ui/page/visit-attribution.ts).
    captureVisitAttribution();
  }, []);

  // The zod rules download when a visitor first reaches the form, not with the page (submit-flow.ts).
  useEffect(() => {
    const form = formRef.current;
    const preload = () => preloadValidation(spec.formId);
    form?.addEventListener('focusin', preload, { once: true });
    return () => form?.removeEventListener('focusin', preload);
  }, [spec.formId]);

  // `?service=AI%20Voice%20Services` preselects the service, also on client-side navigation.
  useEffect(() => {
    startTransition(() => {
      for (const [field, value] of Object.entries(readPrefill(spec, search)) as [FieldName<F>, string][]) {
        dispatch({ type: 'edited', field, value });
      }
    });
  }, [spec, search]);

  // On a slow phone the visitor can type before the form hydrates: what the prerendered fields hold
  // by then is the visitor's, so it becomes the form's state instead of being wiped (after the
  // ?service= prefill, which it overrides).
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    startTransition(() => {
      for (const field of listFields(spec)) {
        const control = form.elements.namedItem(field.name);
        const typed = control instanceof RadioNodeList || isValueControl(control) ? control.value : '';
        if (typed !== '' && typed !== stateRef.current.values[field.name]) dispatch({ type: 'edited', field: field.name, value: typed });
      }
      const callbackBox = form.elements.namedItem(CALLBACK_FIELDS.requested);
      if (callbackBox instanceof HTMLInputElement && callbackBox.checked) dispatch({ type: 'callbackToggled', ticked: true });
      // A bot filling the hidden field before the form hydrated is still caught.
      const honeypot = form.elements.namedItem(HONEYPOT_FIELD);
      if (honeypot instanceof HTMLInputElement && honeypot.value !== '') dispatch({ type: 'honeypotEdited', value: honeypot.value });
    });
  }, [spec]);

  useEffect(() => {
    if (!focusRequest) return;
    const control = formRef.current?.elements.namedItem(focusRequest.field);
    if (control instanceof HTMLElement) control.focus();
  }, [focusRequest]);

  const requestFocus = useCallback((field: string) => {
    setFocusRequest((previous) => ({ field, sequence: (previous?.sequence ?? 0) + 1 }));
  }, []);

  // A send pressed before those first updates have committed (the form was sent as it hydrated)
  // waits for them, so it carries what was typed before hydration; it is sent once they have.
  const takenInRef = useRef(false);
  const sendWhenTakenInRef = useRef(false);
  useEffect(() => {
    if (!enhanced) return;
    takenInRef.current = true;
    if (!sendWhenTakenInRef.current) return;
    sendWhenTakenInRef.current = false;
    formRef.current?.requestSubmit();
  }, [enhanced]);

  const handleSubmit = useCallback(
    (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      if (!takenInRef.current) {
        sendWhenTakenInRef.current = true;
        return;
      }
      if (busyRef.current) return;
      busyRef.current = true;
      const current = stateRef.current;
      // The tap's own task only takes the press. In the next, the form shows it is at work (the
      // button's spinner, `aria-busy`), before its values are checked; the checks, the request and
      // what the answer changes on screen then each come in a task of their own, and the form
      // re-renders in slices (transitions), so a slow phone has no long task between the tap and the
      // message.
      const settle = (update: () => void) =>
        startTransition(() => {
          update();
          // The next press waits until this outcome is on screen (and in stateRef): a press before
          // it would resend what was just sent, or lose the failed submission's retry.
          setSettled((count) => count + 1);
        });
      // (runSubmission pauses again before it checks the values, so the busy state is on screen first.)
      void nextTask()
        .then(() => flushSync(() => dispatch({ type: 'pressed' })))
        .then(() =>
          runSubmission(spec, current.values, {
            limiter: createRateLimiter({ policy: spec.rateLimit, storage: readBrowserStorage('localStorage'), now: Date.now }),
            endpoint,
            createContext: createBrowserPayloadContext,
            spam: { website: current.website, form_shown_at: current.shownAtMs },
            callbackConsent:
              current.callback && callbackWording ? { version: callbackWording.version, text: callbackWording.text } : undefined,
            retry: current.retry,
            send: (submission) => submitLead(submission),
            onSending: () => startTransition(() => dispatch({ type: 'submitted' })),
            pause: nextTask,
          }),
        )
        .then(
          (outcome) => {
            settle(() => {
              switch (outcome.kind) {
                case 'rate-limited':
                  dispatch({ type: 'refused' });
                  break;
                case 'invalid': {
                  dispatch({ type: 'rejected', errors: outcome.fieldErrors });
                  const firstInvalid = listFields(spec).find((field) => outcome.fieldErrors[field.name] !== undefined);
                  if (firstInvalid) requestFocus(firstInvalid.name);
                  break;
                }
                case 'sent':
                  dispatch({ type: 'succeeded', atMs: Date.now() });
                  optionsRef.current.onSuccess?.(outcome.data, { demo: outcome.demo, leadId: outcome.leadId });
                  if (spec.redirectOnSuccess) void navigate(spec.redirectOnSuccess);
                  break;
                case 'failed':
                  dispatch({ type: 'failed', retry: outcome.retry });
                  break;
              }
            });
            void nextTask().then(() => showToast(toastFor(spec.toasts, outcome), theme));
          },
          (error: unknown) => {
            // The checks could not load (the connection dropped): nothing was sent, and the next
            // press tries again.
            settle(() => dispatch({ type: 'refused' }));
            throw error;
          },
        );
    },
    [spec, endpoint, callbackWording, navigate, requestFocus, theme],
  );

  const setValue = useCallback((field: FieldName<F>, value: string) => dispatch({ type: 'edited', field, value }), []);
  const setHoneypot = useCallback((value: string) => dispatch({ type: 'honeypotEdited', value }), []);
  const setCallback = useCallback((ticked: boolean) => dispatch({ type: 'callbackToggled', ticked }), []);
  const reset = useCallback(() => {
    dispatch({ type: 'reset', atMs: Date.now() });
    const [firstField] = listFields(spec);
    if (firstField) requestFocus(firstField.name);
  }, [spec, requestFocus]);

  return {
    spec,
    state,
    endpoint,
    enhanced,
    submitting: state.status === 'submitting',
    formRef,
    setValue,
    setHoneypot,
    setCallback,
    callbackWording,
    handleSubmit,
    reset,
  };
}

function isValueControl(control: unknown): control is HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement {
  return control instanceof HTMLInputElement || control instanceof HTMLSelectElement || control instanceof HTMLTextAreaElement;
}
