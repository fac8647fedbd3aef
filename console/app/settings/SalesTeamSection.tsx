// Settings → Sales team: who leads can go to, their working hours in their own time zone, whether
// they are away, and whether they could take a lead right now; the assignment rules for those who
// manage the team. Everyone who works leads sets their own hours and away switch (going to lunch is
// one tap); those who manage the team can set anyone's.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SalesPerson, WorkingWindow } from '../../api-types.ts';
import { ApiError, messageOf } from '../api.ts';
import { Field } from '../parts/Field.tsx';
import { plural } from '../parts/format.tsx';
import { ErrorMessage, LoadState, StatusMessage } from '../parts/messages.tsx';
import { useLoad } from '../parts/use-load.ts';
import { useSession } from '../session.tsx';
import { RulesEditor } from './RulesEditor.tsx';

/** Day 0 is Sunday, as the windows count; the list starts on Monday, as a working week does. */
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;
const END_BEFORE_START = 'Must be later than the start.';
const NO_DAY = 'Tick at least one working day, or switch "Away" on instead.';

/** 540 → "09:00", as a time input holds it. */
const timeOf = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
/** "09:00" → 540; a day's end may be written 24:00 or left at 00:00 for midnight. */
const minuteOf = (time: string) => {
  const [hours = 0, minutes = 0] = time.split(':').map(Number);
  return hours * 60 + minutes;
};
const CLOCK = (minute: number) =>
  minute % 1440 === 0
    ? 'midnight'
    : new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' }).format(
        new Date(Date.UTC(2000, 0, 1, 0, minute)),
      );

/** "Mon-Fri 9:00 AM-5:00 PM" when the days share one span, else each day on its own. */
export function describeHours(windows: readonly WorkingWindow[]): string {
  if (windows.length === 0) return 'No working hours set';
  const sorted = WEEK_ORDER.flatMap((day) => windows.filter((window) => window.day === day));
  const spans = new Set(sorted.map((window) => `${window.startMinute}-${window.endMinute}`));
  if (spans.size === 1) {
    const days = sorted.map((window) => window.day);
    const positions = days.map((day) => WEEK_ORDER.indexOf(day as (typeof WEEK_ORDER)[number]));
    const run = positions.every((position, index) => index === 0 || position === positions[index - 1]! + 1);
    const dayWords =
      run && days.length > 2 ? `${SHORT_DAYS[days[0]!]}-${SHORT_DAYS[days.at(-1)!]}` : days.map((day) => SHORT_DAYS[day]).join(', ');
    const allDay = sorted[0]!.startMinute === 0 && sorted[0]!.endMinute === 1440;
    return `${days.length === 7 ? 'Every day' : dayWords} ${allDay ? 'all day' : `${CLOCK(sorted[0]!.startMinute)}-${CLOCK(sorted[0]!.endMinute)}`}`;
  }
  return sorted.map((window) => `${SHORT_DAYS[window.day]} ${CLOCK(window.startMinute)}-${CLOCK(window.endMinute)}`).join('; ');
}

/** "America/New_York" → "New York", as the rest of the console names a zone; a zone without a place stays whole ("UTC"). */
const zoneName = (zone: string) => zone.slice(zone.lastIndexOf('/') + 1).replaceAll('_', ' ');

function timeZones(current: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes(current) ? zones : [current, ...zones];
}

export function SalesTeamSection() {
  const { api, can } = useSession();
  const people = useLoad(api.people, 'people');
  const manages = can('sales:manage');
  const rules = useLoad(() => (manages ? api.assignmentRules() : Promise.resolve(null)), manages ? 'rules' : 'no-rules');
  const [status, setStatus] = useState('');
  return (
    <section className="panel" aria-labelledby="settings-sales">
      <h2 id="settings-sales">Sales team</h2>
      <StatusMessage>{status}</StatusMessage>
      <LoadState loaded={people} what="the sales team">
        {(list) => (
          <>
            <PeopleList
              people={list}
              onChanged={(words) => {
                setStatus(words);
                people.reload();
              }}
            />
            {manages ? (
              <LoadState loaded={rules} what="the assignment rules">
                {(saved) => (saved ? <RulesEditor saved={saved} people={list} onSaved={rules.reload} /> : null)}
              </LoadState>
            ) : null}
          </>
        )}
      </LoadState>
    </section>
  );
}

function PeopleList({ people, onChanged }: { people: SalesPerson[]; onChanged: (words: string) => void }) {
  const { api, can, info } = useSession();
  const [editing, setEditing] = useState<string | null>(null);
  const [switching, setSwitching] = useState<string | null>(null);
  const [error, setError] = useState('');
  const editButtons = useRef(new Map<string, HTMLButtonElement>());
  const mayEdit = (person: SalesPerson) => can('sales:manage') || (can('leads:work') && person.id === info.id);
  const whose = (person: SalesPerson) => (person.id === info.id ? 'your' : `${person.email}'s`);

  async function setAway(person: SalesPerson, away: boolean) {
    setSwitching(person.id);
    setError('');
    try {
      await api.setAvailability(person.id, { timeZone: person.timeZone, windows: person.windows, away });
      onChanged(
        person.id === info.id
          ? away
            ? 'You are away: new leads go to the others.'
            : 'You are back: new leads can come to you in your working hours.'
          : `${person.email} is ${away ? 'away' : 'back'}.`,
      );
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setSwitching(null);
    }
  }

  if (people.length === 0) return <p className="empty">Nobody in sales yet: add an account with the role sales under Accounts.</p>;
  return (
    <>
      <ErrorMessage>{error}</ErrorMessage>
      <ul className="plain-list people">
        {people.map((person) => (
          <li key={person.id} className="person">
            <p className="person-name">
              <strong>{person.email}</strong>
              {person.id === info.id ? ' (you)' : ''}{' '}
              <span className={`badge ${person.availableNow ? 'badge-open' : 'badge-closed'}`}>
                {person.availableNow ? 'Available now' : person.away ? 'Away' : 'Off shift'}
              </span>
            </p>
            <p>
              {describeHours(person.windows)}, {zoneName(person.timeZone)} time. {plural(person.untouched, 'lead', 'leads')} waiting for a
              first call.
            </p>
            {mayEdit(person) ? (
              <div className="card-actions">
                <label className="switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={person.away}
                    disabled={switching === person.id}
                    onChange={(event) => void setAway(person, event.target.checked)}
                  />
                  Away{person.id === info.id ? '' : <span className="visually-hidden"> ({person.email})</span>}
                </label>
                <button
                  type="button"
                  className="button"
                  aria-expanded={editing === person.id}
                  ref={(button) => {
                    if (button) editButtons.current.set(person.id, button);
                  }}
                  onClick={() => setEditing(editing === person.id ? null : person.id)}
                >
                  Change {whose(person)} hours
                </button>
              </div>
            ) : null}
            {editing === person.id ? (
              <HoursForm
                person={person}
                onDone={(words) => {
                  setEditing(null);
                  editButtons.current.get(person.id)?.focus();
                  if (words) onChanged(words);
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </>
  );
}

type DayDraft = { on: boolean; from: string; to: string };

function HoursForm({ person, onDone }: { person: SalesPerson; onDone: (words: string | null) => void }) {
  const { api, info } = useSession();
  const [timeZone, setTimeZone] = useState(person.timeZone);
  const [days, setDays] = useState<DayDraft[]>(() =>
    DAY_NAMES.map((_, day) => {
      const window = person.windows.find((each) => each.day === day);
      return window
        ? { on: true, from: timeOf(window.startMinute), to: timeOf(window.endMinute) }
        : { on: false, from: '09:00', to: '17:00' };
    }),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const zoneId = useId();

  useEffect(() => form.current?.querySelector<HTMLElement>('select')?.focus(), []);

  const setDay = (day: number, change: Partial<DayDraft>) => {
    setDays((previous) => previous.map((draft, index) => (index === day ? { ...draft, ...change } : draft)));
    setErrors({});
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setError('');
    const found: Record<string, string> = {};
    const windows: WorkingWindow[] = [];
    days.forEach((draft, day) => {
      if (!draft.on) return;
      const startMinute = minuteOf(draft.from);
      // A day that ends at midnight is written 00:00 in a time input.
      const endMinute = draft.to === '00:00' ? 1440 : minuteOf(draft.to);
      if (endMinute <= startMinute) found[`to-${day}`] = END_BEFORE_START;
      else windows.push({ day, startMinute, endMinute });
    });
    if (Object.keys(found).length === 0 && windows.length === 0) found.days = NO_DAY;
    if (Object.keys(found).length > 0) {
      setErrors(found);
      const first = Object.keys(found)[0]!;
      form.current?.querySelector<HTMLElement>(first === 'days' ? 'input[type="checkbox"]' : `[data-field="${first}"]`)?.focus();
      return;
    }
    setSaving(true);
    try {
      const saved = await api.setAvailability(person.id, { timeZone, windows, away: person.away });
      onDone(
        `Saved ${person.id === info.id ? 'your' : `${saved.email}'s`} hours: ${describeHours(saved.windows)}, ${zoneName(saved.timeZone)} time.`,
      );
    } catch (failure) {
      if (failure instanceof ApiError && Object.keys(failure.fields).length > 0) {
        const mapped: Record<string, string> = {};
        const other: string[] = [];
        for (const [name, message] of Object.entries(failure.fields)) {
          if (name === 'timeZone') mapped.timeZone = message;
          else other.push(message);
        }
        setErrors(mapped);
        setError(other.join(' '));
      } else setError(messageOf(failure));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      ref={form}
      className="hours-form"
      aria-label={`Working hours of ${person.email}`}
      onSubmit={(event) => void save(event)}
      noValidate
    >
      <Field label="Time zone" error={errors.timeZone} hint="The hours below are in this time zone.">
        {(control) => (
          <select {...control} value={timeZone} onChange={(event) => setTimeZone(event.target.value)}>
            {timeZones(person.timeZone).map((zone) => (
              <option key={zone} value={zone}>
                {zone.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset aria-describedby={errors.days ? `${zoneId}-days` : undefined}>
        <legend>Working days and hours</legend>
        {errors.days ? (
          <p className="field-error" id={`${zoneId}-days`}>
            {errors.days}
          </p>
        ) : null}
        {WEEK_ORDER.map((day) => {
          const draft = days[day]!;
          return (
            <div key={day} className="day-row">
              <label className="switch day-name">
                <input type="checkbox" checked={draft.on} onChange={(event) => setDay(day, { on: event.target.checked })} />
                {DAY_NAMES[day]}
              </label>
              {draft.on ? (
                <>
                  <Field
                    label={
                      <span>
                        From<span className="visually-hidden"> ({DAY_NAMES[day]})</span>
                      </span>
                    }
                  >
                    {(control) => (
                      <input {...control} type="time" value={draft.from} onChange={(event) => setDay(day, { from: event.target.value })} />
                    )}
                  </Field>
                  <Field
                    label={
                      <span>
                        To<span className="visually-hidden"> ({DAY_NAMES[day]})</span>
                      </span>
                    }
                    error={errors[`to-${day}`]}
                  >
                    {(control) => (
                      <input
                        {...control}
                        data-field={`to-${day}`}
                        type="time"
                        value={draft.to}
                        onChange={(event) => setDay(day, { to: event.target.value })}
                      />
                    )}
                  </Field>
                </>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      <ErrorMessage>{error}</ErrorMessage>
      <div className="toolbar">
        <button type="submit" className="button button-primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save the hours'}
        </button>
        <button type="button" className="button" onClick={() => onDone(null)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
