// A publish, an undo or a restore under way: each step the studio goes through, which are done and
// which one it is on, read out as it moves on.
import { css } from '@emotion/react';
import type { PublishRunView } from '../api.ts';
import { ui } from '../ui.ts';

const STEP_MARK = { done: '✓', now: '…', next: '', stopped: '✗' } as const;
const STEP_STATE = { done: 'done', now: 'under way', next: 'next', stopped: 'stopped' } as const;

export function PublishProgress({ what, run }: { what: string; run: PublishRunView | undefined }) {
  return (
    <div role="status" aria-label="Publish progress" css={ui.banner}>
      <p css={css({ margin: 0 })}>{what}…</p>
      {run && (
        <ol css={css({ margin: '6px 0 0', paddingLeft: 22 })}>
          {run.steps.map((step) => (
            <li
              key={step.key}
              aria-current={step.state === 'now' ? 'step' : undefined}
              css={css({ fontWeight: step.state === 'now' ? 600 : 400 })}
            >
              {step.label} <span aria-hidden="true">{STEP_MARK[step.state]}</span>
              <span css={ui.visuallyHidden}>({STEP_STATE[step.state]})</span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
