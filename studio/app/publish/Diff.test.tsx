// @vitest-environment happy-dom
// The review diff shows the text as it really is: a character nobody can see is shown as a mark.
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Diff } from './Diff.tsx';

afterEach(cleanup);

describe('the review diff', () => {
  it('shows right-to-left controls and zero-width spaces as visible marks, not reordered or hidden text', () => {
    const { container } = render(
      <Diff
        hunks={[
          {
            lines: [
              { kind: 'removed', text: '        href: /contact' },
              { kind: 'added', text: '        href: https://evil.example/\u202Eexe.gpj' },
              { kind: 'added', text: '    heading: Free\u200B audit' },
            ],
          },
        ]}
      />,
    );
    const added = [...container.querySelectorAll('[data-diff="added"]')].map((line) => line.textContent);
    expect(added).toEqual(['+ Added:         href: https://evil.example/⟨U+202E⟩exe.gpj', '+ Added:     heading: Free⟨U+200B⟩ audit']);
  });
});
