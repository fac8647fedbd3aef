// @vitest-environment happy-dom
// The sign-in form as a person uses it: an e-mail address and a password, sent as the server reads
// them; a refusal shown beside the password in the server's own words; the studio opened on success.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SignIn } from './SignIn.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The studio server's answer to the sign-in, and every request the form sent. */
function answerWith(status: number, body: unknown) {
  const requests: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, method: init.method ?? 'GET', body: JSON.parse(String(init.body)) });
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
  return requests;
}

function fillIn(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.submit(screen.getByRole('button', { name: 'Sign in' }));
}

describe('signing in to the studio', () => {
  it('asks for an e-mail address and sends it with the password', async () => {
    const requests = answerWith(200, { signInRequired: true, user: 'maria@example.com', csrfToken: 'token' });
    const onSignedIn = vi.fn();
    render(<SignIn onSignedIn={onSignedIn} />);
    expect(screen.getByLabelText('Email').getAttribute('type')).toBe('email');
    fillIn('maria@example.com', 'correct horse battery staple');
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith({ signInRequired: true, user: 'maria@example.com', csrfToken: 'token' }));
    expect(requests).toEqual([
      { url: '/api/session', method: 'POST', body: { email: 'maria@example.com', password: 'correct horse battery staple' } },
    ]);
  });

  it.each([
    [401, 'That e-mail address and password do not match.'],
    [403, 'This account cannot edit the site: ask an admin to give it the editor role.'],
  ])('shows a %i refusal beside the password, in the server’s words', async (status, message) => {
    answerWith(status, { message });
    const onSignedIn = vi.fn();
    render(<SignIn onSignedIn={onSignedIn} />);
    fillIn('sam@example.com', 'correct horse battery staple');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(password.getAttribute('aria-describedby')).toBe('sign-in-error');
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
