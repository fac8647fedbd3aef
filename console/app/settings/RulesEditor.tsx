// The assignment rules, for those who manage the sales team: an ordered list, tried from the top for
// each new lead (the first rule that matches and whose person is available gives the lead to them;
// a lead no rule takes goes round-robin among the available sales people). Each rule says what it
// recognises (a form, a Service Interest answer, a campaign, or a company someone already has a lead
// from) and who gets the lead. Saving sends the whole list; the answer says beside each rule when it
// would give leads to nobody, so a mistake is seen when it is made, not when leads go astray.
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { RULE_KINDS, type AssignmentRules, type RuleKind, type RuleView, type SalesPerson } from '../../api-types.ts';
import { ApiError, messageOf } from '../api.ts';
import { Field } from '../parts/Field.tsx';
import { plural } from '../parts/format.tsx';
import { ErrorMessage, StatusMessage } from '../parts/messages.tsx';
import { useSession } from '../session.tsx';

export const RULE_KIND_LABELS: Readonly<Record<RuleKind, string>> = {
  form: 'Form',
  service: 'Service interest',
  campaign: 'Campaign',
  domain: 'Same company',
};

const VALUE_LABELS: Readonly<Record<Exclude<RuleKind, 'domain'>, { label: string; hint: string }>> = {
  form: { label: 'Form name', hint: 'As the inbox names it, for example Contact Page Form.' },
  service: { label: 'Service interest', hint: 'The answer the visitor picked, for example Cloud migration.' },
  campaign: { label: 'Campaign', hint: 'The campaign in the link they came from (utm_campaign), for example spring-webinar.' },
};
const DOMAIN_MEANING =
  'A lead from a company someone already has a lead from (same e-mail domain, not a free mail service) goes to that person.';
const VALUE_REQUIRED = 'Fill this in, or remove the rule.';
const OWNER_REQUIRED = 'Choose who gets these leads.';

type Draft = { key: number; kind: RuleKind; value: string; ownerId: string; warning: string | null };
type DraftErrors = Record<number, { value?: string; ownerId?: string; kind?: string }>;

let nextKey = 1;
const draftOf = (rule: RuleView): Draft => ({
  key: nextKey++,
  kind: rule.kind,
  value: rule.value,
  ownerId: rule.owner ? rule.owner.id : '',
  warning: rule.warning,
});

export function RulesEditor({ saved, people, onSaved }: { saved: AssignmentRules; people: SalesPerson[]; onSaved: () => void }) {
  const { api } = useSession();
  const [drafts, setDrafts] = useState<Draft[]>(() => saved.rules.map(draftOf));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [saving, setSaving] = useState(false);
  /** After a move, add or remove: which control takes the focus once the list is drawn again. */
  const [focus, setFocus] = useState<string | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (focus === null) return;
    const target = focus === 'add' ? addButton.current : list.current?.querySelector<HTMLElement>(`[data-focus="${focus}"]`);
    target?.focus();
    setFocus(null);
  }, [focus, drafts]);

  const update = (key: number, change: Partial<Draft>) => {
    // An edited rule's warning was about what it said before.
    setDrafts((previous) => previous.map((draft) => (draft.key === key ? { ...draft, ...change, warning: null } : draft)));
    setErrors((previous) => ({ ...previous, [key]: {} }));
  };
  const move = (index: number, by: -1 | 1) => {
    const to = index + by;
    setDrafts((previous) => {
      const next = [...previous];
      [next[index], next[to]] = [next[to]!, next[index]!];
      return next;
    });
    // The rule moved keeps the focus on the same button, unless it reached the end of the list.
    const atEnd = to === 0 || to === drafts.length - 1;
    setFocus(`${drafts[index]!.key}-${atEnd ? (by < 0 ? 'down' : 'up') : by < 0 ? 'up' : 'down'}`);
  };

  function check(): DraftErrors | null {
    const found: DraftErrors = {};
    for (const draft of drafts) {
      if (draft.kind === 'domain') continue;
      const problems: DraftErrors[number] = {};
      if (draft.value.trim() === '') problems.value = VALUE_REQUIRED;
      if (draft.ownerId === '') problems.ownerId = OWNER_REQUIRED;
      if (problems.value || problems.ownerId) found[draft.key] = problems;
    }
    return Object.keys(found).length > 0 ? found : null;
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setError('');
    setStatus('');
    const problems = check();
    if (problems) {
      setErrors(problems);
      const first = drafts.find((draft) => problems[draft.key]);
      setFocus(`${first!.key}-${problems[first!.key]!.value ? 'value' : 'owner'}`);
      return;
    }
    setSaving(true);
    try {
      const answer = await api.setAssignmentRules({
        rules: drafts.map((draft) => ({
          kind: draft.kind,
          value: draft.kind === 'domain' ? '' : draft.value.trim(),
          ownerId: draft.kind === 'domain' || draft.ownerId === '' ? null : draft.ownerId,
        })),
      });
      setDrafts(answer.rules.map(draftOf));
      setErrors({});
      const warned = answer.rules.filter((rule) => rule.warning).length;
      setStatus(
        warned === 0
          ? 'Rules saved.'
          : `Rules saved. ${plural(warned, 'rule gives', 'rules give')} leads to nobody: see the warning beside it.`,
      );
      onSaved();
    } catch (failure) {
      if (failure instanceof ApiError && Object.keys(failure.fields).length > 0) {
        // The server names a rule's input as rules.<position>.<name>.
        const found: DraftErrors = {};
        const other: string[] = [];
        for (const [name, message] of Object.entries(failure.fields)) {
          const match = /^rules\.(\d+)\.(kind|value|ownerId)$/.exec(name);
          const draft = match ? drafts[Number(match[1])] : undefined;
          if (match && draft) found[draft.key] = { ...found[draft.key], [match[2]!]: message };
          else other.push(message);
        }
        setErrors(found);
        setError(other.join(' ') || failure.message);
      } else setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  const sales = people.filter((person) => person.role === 'sales' || person.role === 'admin');
  return (
    <form aria-labelledby="rules-heading" onSubmit={(event) => void save(event)} noValidate>
      <h3 id="rules-heading">Assignment rules</h3>
      <p>
        Each new lead is checked against the rules from the top. The first rule that matches gives it to its person, if they are working and
        not away; otherwise the next rule is tried. A lead no rule takes goes to the available sales people in turn.
      </p>
      {drafts.length === 0 ? <p className="empty">No rules: every lead goes to the available sales people in turn.</p> : null}
      <ol className="rules" ref={list}>
        {drafts.map((draft, index) => (
          <li key={draft.key} className="rule">
            <fieldset>
              <legend>Rule {index + 1}</legend>
              {draft.warning ? (
                <p className="warning rule-warning" id={`rule-warning-${draft.key}`}>
                  {draft.warning}
                </p>
              ) : null}
              <div className="rule-fields">
                <Field label="Leads by" error={errors[draft.key]?.kind}>
                  {(control) => (
                    <select
                      {...control}
                      data-focus={`${draft.key}-kind`}
                      value={draft.kind}
                      onChange={(event) => update(draft.key, { kind: event.target.value as RuleKind })}
                    >
                      {RULE_KINDS.map((kind) => (
                        <option key={kind} value={kind}>
                          {RULE_KIND_LABELS[kind]}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                {draft.kind === 'domain' ? (
                  <p className="field-hint rule-meaning">{DOMAIN_MEANING}</p>
                ) : (
                  <>
                    <Field
                      label={VALUE_LABELS[draft.kind].label}
                      hint={VALUE_LABELS[draft.kind].hint}
                      error={errors[draft.key]?.value}
                      alsoDescribedBy={draft.warning ? `rule-warning-${draft.key}` : undefined}
                    >
                      {(control) => (
                        <input
                          {...control}
                          data-focus={`${draft.key}-value`}
                          type="text"
                          maxLength={200}
                          value={draft.value}
                          onChange={(event) => update(draft.key, { value: event.target.value })}
                        />
                      )}
                    </Field>
                    <Field label="Goes to" error={errors[draft.key]?.ownerId}>
                      {(control) => (
                        <select
                          {...control}
                          data-focus={`${draft.key}-owner`}
                          value={draft.ownerId}
                          onChange={(event) => update(draft.key, { ownerId: event.target.value })}
                        >
                          <option value="">Choose a person</option>
                          {draft.ownerId !== '' && !sales.some((person) => person.id === draft.ownerId) ? (
                            <option value={draft.ownerId}>
                              {saved.rules.find((rule) => rule.owner?.id === draft.ownerId)?.owner?.email ?? 'A person no longer in sales'}
                            </option>
                          ) : null}
                          {sales.map((person) => (
                            <option key={person.id} value={person.id}>
                              {person.email}
                            </option>
                          ))}
                        </select>
                      )}
                    </Field>
                  </>
                )}
              </div>
              <div className="card-actions">
                <button
                  type="button"
                  className="button"
                  data-focus={`${draft.key}-up`}
                  disabled={index === 0}
                  onClick={() => move(index, -1)}
                >
                  Move up<span className="visually-hidden"> rule {index + 1}</span>
                </button>
                <button
                  type="button"
                  className="button"
                  data-focus={`${draft.key}-down`}
                  disabled={index === drafts.length - 1}
                  onClick={() => move(index, 1)}
                >
                  Move down<span className="visually-hidden"> rule {index + 1}</span>
                </button>
                <button
                  type="button"
                  className="button button-danger"
                  onClick={() => {
                    setDrafts((previous) => previous.filter((each) => each.key !== draft.key));
                    setFocus('add');
                  }}
                >
                  Remove<span className="visually-hidden"> rule {index + 1}</span>
                </button>
              </div>
            </fieldset>
          </li>
        ))}
      </ol>
      <div className="toolbar">
        <button
          type="button"
          className="button"
          ref={addButton}
          onClick={() => {
            const draft: Draft = { key: nextKey++, kind: 'form', value: '', ownerId: '', warning: null };
            setDrafts((previous) => [...previous, draft]);
            setFocus(`${draft.key}-kind`);
          }}
        >
          Add a rule
        </button>
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving the rules…' : 'Save the rules'}
        </button>
      </div>
      <StatusMessage>{status}</StatusMessage>
      <ErrorMessage>{error}</ErrorMessage>
    </form>
  );
}
