// @vitest-environment happy-dom
// The messages above the form: the mistakes that stop publishing apart from the suggestions that do not.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ContentIssue } from '../../../content-model/content-issue.ts';
import { IssueList } from './IssueList.tsx';

afterEach(cleanup);

const issue = (message: string, severity?: 'warning'): ContentIssue => ({
  file: 'content/pages/about.yaml',
  line: 3,
  column: 8,
  where: 'title',
  message,
  segments: ['title'],
  place: 'Search title',
  ...(severity ? { severity } : {}),
});

describe('the issue list', () => {
  it('lists mistakes as things to fix, and suggestions apart as not stopping publishing', () => {
    render(<IssueList issues={[issue('A title is needed here: write one.'), issue('This title is 72 characters…', 'warning')]} />);
    const mistakes = screen.getByRole('region', { name: '1 thing to fix before publishing' });
    expect(within(mistakes).getByRole('link').textContent).toBe('Search title: a title is needed here: write one.');
    const suggestions = screen.getByRole('region', { name: '1 suggestion (they do not stop publishing)' });
    expect(within(suggestions).getByRole('link').textContent).toBe('Search title: this title is 72 characters…');
  });

  it('names a place in the form’s words only, never the keys of the file', () => {
    const { where: _where, place: _place, ...unplaced } = issue('A heading is needed here: write one.');
    render(<IssueList issues={[{ ...unplaced, where: 'blocks[0] (hero) heading', segments: ['blocks', 0, 'heading'] }]} />);
    expect(screen.getByRole('link').textContent).toBe('A heading is needed here: write one.');
  });

  it('shows no "to fix" list when there are only suggestions', () => {
    render(<IssueList issues={[issue('Start with what it shows.', 'warning'), issue('A bare address.', 'warning')]} />);
    expect(screen.queryByRole('region', { name: /to fix/ })).toBeNull();
    expect(screen.getByRole('region', { name: '2 suggestions (they do not stop publishing)' })).toBeDefined();
  });
});
