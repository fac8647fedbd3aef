// The one place a lead-form field is wired (the shadcn/ui form anchor): label, unique ids,
// aria-describedby (optional note, hint, error), aria-invalid, the native constraints and the message.
import { useTheme } from '@emotion/react';
import { memo, useId, type ChangeEvent } from 'react';
import type { FieldSpec } from './form-spec.ts';
import * as styles from './form-styles.ts';

export const OPTIONAL_NOTE = 'Optional';

type FieldProps<N extends string> = {
  spec: FieldSpec<N>;
  value: string;
  error: string | undefined;
  onValueChange: (name: N, value: string) => void;
};

type ControlElement = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

function FieldControl<N extends string>({ spec, value, error, onValueChange }: FieldProps<N>) {
  const theme = useTheme();
  const id = useId();
  const optionalId = `${id}-optional`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [!spec.required && optionalId, spec.hint && hintId, error && errorId].filter(Boolean).join(' ');

  const shared = {
    id,
    name: spec.name,
    value,
    required: spec.required,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    onChange: (event: ChangeEvent<ControlElement>) => onValueChange(spec.name, event.currentTarget.value),
  };

  return (
    <div css={styles.fieldSpan(spec.span)}>
      <div css={styles.labelRow(theme)}>
        <label htmlFor={id} css={styles.label(theme)}>
          {spec.label}
        </label>
        {spec.required ? null : (
          <span id={optionalId} css={styles.optionalTag(theme)}>
            {OPTIONAL_NOTE}
          </span>
        )}
      </div>
      {spec.hint ? (
        <p id={hintId} css={styles.hint(theme)}>
          {spec.hint}
        </p>
      ) : null}
      {renderControl(spec, shared, theme)}
      {error ? (
        <p id={errorId} css={styles.errorMessage(theme)}>
          <ErrorGlyph />
          <span>{error}</span>
        </p>
      ) : null}
    </div>
  );
}

function renderControl<N extends string>(
  spec: FieldSpec<N>,
  shared: Record<string, unknown> & { value: string },
  theme: ReturnType<typeof useTheme>,
) {
  switch (spec.control) {
    case 'select':
      return (
        <div css={styles.selectWrap}>
          <select {...shared} data-empty={shared.value === '' ? 'true' : undefined} css={[styles.control(theme), styles.select(theme)]}>
            <option value="">{spec.placeholder ?? ''}</option>
            {spec.options?.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
          <svg
            width={18}
            height={18}
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth={2}
            strokeLinecap="round"
            strokeLinejoin="round"
            aria-hidden="true"
            focusable="false"
            css={styles.selectChevron(theme)}
          >
            <path d="m6 9 6 6 6-6" />
          </svg>
        </div>
      );
    case 'textarea':
      return (
        <textarea
          {...shared}
          rows={spec.rows}
          minLength={spec.minLength}
          maxLength={spec.maxLength}
          placeholder={spec.placeholder}
          css={[styles.control(theme), styles.textArea(theme)]}
        />
      );
    default:
      return (
        <input
          {...shared}
          type={spec.type ?? 'text'}
          autoComplete={spec.autoComplete}
          placeholder={spec.placeholder}
          minLength={spec.minLength}
          maxLength={spec.maxLength}
          pattern={spec.pattern}
          min={spec.min}
          max={spec.max}
          step={spec.step}
          inputMode={spec.type === 'number' ? 'numeric' : undefined}
          css={styles.control(theme)}
        />
      );
  }
}

/** An exclamation mark in a circle: the message's colour is not the only signal (WCAG 1.4.1). */
function ErrorGlyph() {
  return (
    <svg
      width={16}
      height={16}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      aria-hidden="true"
      focusable="false"
    >
      <circle cx="12" cy="12" r="10" />
      <path d="M12 8v4M12 16h.01" />
    </svg>
  );
}

/**
 * A keystroke re-renders only the field typed in: its props are the same objects for every other
 * field (the spec, the form's stable setter). On a slow phone, re-rendering the whole form on each
 * key was a long task (~70 ms at 4× CPU slowdown) after the visitor's first key.
 */
export const Field = memo(FieldControl) as typeof FieldControl;
