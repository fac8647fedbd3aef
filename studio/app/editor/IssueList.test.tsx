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
  ...(severity ? { severity } : {}),
});

describe('the issue list', () => {
  it('lists mistakes as things to fix, and suggestions apart as not stopping publishing', () => {
    render(<IssueList issues={[issue('This must not be empty.'), issue('This title is 72 characters…', 'warning')]} />);
    const mistakes = screen.getByRole('region', { name: '1 thing to fix before publishing' });
    expect(within(mistakes).getByRole('link').textContent).toBe('title: This must not be empty.');
    const suggestions = screen.getByRole('region', { name: '1 suggestion (they do not stop publishing)' });
    expect(within(suggestions).getByRole('link').textContent).toBe('title: This title is 72 characters…');
  });

  it('shows no "to fix" list when there are only suggestions', () => {
    render(<IssueList issues={[issue('Start with what it shows.', 'warning'), issue('A bare address.', 'warning')]} />);
    expect(screen.queryByRole('region', { name: /to fix/ })).toBeNull();
    expect(screen.getByRole('region', { name: '2 suggestions (they do not stop publishing)' })).toBeDefined();
  });
});
