// @vitest-environment happy-dom
// Signing in against a stand-in for the console's API: errors tied to their fields, the server's
// sentence in an alert, the wait after too many attempts, a busy button, and the screen the person
// was headed to once signed in.
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describedBy } from '../testing/described-by.ts';
import { renderConsole, sessionFor, stubConsoleServer, type Answer } from '../testing/console-server.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SIGNED_OUT: Answer = { status: 401, body: { error: 'signed-out', message: 'Sign in first.' } };
const EMPTY_PAGE: Answer = { body: { leads: [], next: null } };

function fillIn(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('E-mail address'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('signing in to the console', () => {
  it('asks for both fields, each message tied to its field, before calling the server', async () => {
    const server = stubConsoleServer({ 'GET /session': SIGNED_OUT });
    renderConsole('/console');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    const email = screen.getByLabelText('E-mail address');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(email)).toBe('Enter your e-mail address.');
    expect(describedBy(screen.getByLabelText('Password'))).toBe('Enter your password.');
    expect(server.made('POST /session')).toEqual([]);
  });

  it("shows the server's sentence in an alert the fields point at, and keeps what was typed", async () => {
    const server = stubConsoleServer({
      'GET /session': SIGNED_OUT,
      'POST /session': { status: 401, body: { error: 'refused', message: 'That e-mail address and password do not match an account.' } },
    });
    renderConsole('/console');
    await screen.findByRole('heading', { name: 'Sign in to the console' });
    fillIn('ada@example.com', 'wrong password');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('That e-mail address and password do not match an account.');
    expect(describedBy(screen.getByLabelText('Password'))).toContain('do not match an account');
    expect(screen.getByLabelText<HTMLInputElement>('E-mail address').value).toBe('ada@example.com');
    expect(server.made('POST /session')[0]!.body).toEqual({ email: 'ada@example.com', password: 'wrong password' });
  });

  it('says how long to wait after too many attempts', async () => {
    stubConsoleServer({
      'GET /session': SIGNED_OUT,
      'POST /session': {
        status: 429,
        body: { error: 'rate-limited', message: 'Too many sign-in attempts.', retryAfterSeconds: 600 },
      },
    });
    renderConsole('/console');
    await screen.findByRole('heading', { name: 'Sign in to the console' });
    fillIn('ada@example.com', 'guess');
    expect((await screen.findByRole('alert')).textContent).toBe('Too many sign-in attempts. You can try again in 10 min.');
  });

  it('shows the button busy while the server answers, then the screen the person was headed to', async () => {
    let answerSignIn: (answer: Answer) => void = () => undefined;
    const server = stubConsoleServer({
      'GET /session': SIGNED_OUT,
      'POST /session': () => new Promise<Answer>((resolve) => (answerSignIn = resolve)),
      'GET /leads': EMPTY_PAGE,
    });
    const app = renderConsole('/console/leads?state=failed');
    await screen.findByRole('heading', { name: 'Sign in to the console' });
    fillIn('ada@example.com', 'correct horse battery staple');
    const busy = await screen.findByRole('button', { name: 'Signing in…' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);

    answerSignIn({ body: sessionFor('sales', 'ada@example.com') });
    expect(await screen.findByRole('heading', { name: 'Inbox' })).toBeTruthy();
    expect(app.location()).toEqual({ pathname: '/leads', search: '?state=failed' });
    await waitFor(() => expect(server.made('GET /leads')[0]?.query.get('state')).toBe('failed'));
    expect(screen.getByText('ada@example.com')).toBeTruthy();
  });
});
