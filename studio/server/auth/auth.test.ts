import { describe, expect, it } from 'vitest';
import { runStudioUserCommand, type CommandIo } from '../../cli/studio-user.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { checkCsrf, checkSameOrigin, createSessionStore, readSessionCookie, sessionCookie } from './sessions.ts';
import { createSignInLimiter } from './sign-in-limiter.ts';
import { readStudioSettings } from './studio-settings.ts';
import { readStudioUsers } from './users.ts';

describe('passwords', () => {
  it('verifies the right password and refuses a wrong one or a malformed hash', async () => {
    const hash = await hashPassword('correct horse battery staple');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery stapler', hash)).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$1$1$1$x$y')).toBe(false);
    expect(await verifyPassword('anything', 'not a hash')).toBe(false);
  });

  it('refuses to hash a short password', async () => {
    await expect(hashPassword('short')).rejects.toThrow('at least 12 characters');
  });
});

describe('settings', () => {
  it('refuses a non-loopback address without accounts, with what to do', () => {
    expect(() => readStudioSettings({ STUDIO_HOST: '0.0.0.0' })).toThrow(
      'Set STUDIO_USERS (create entries with `npm run studio:user -- add <name>`) or listen on 127.0.0.1.',
    );
    expect(readStudioSettings({})).toEqual({ host: '127.0.0.1', port: 4322, secureCookies: false });
  });

  it('accepts any address with accounts', async () => {
    const hash = await hashPassword('correct horse battery staple');
    const settings = readStudioSettings({ STUDIO_HOST: '0.0.0.0', STUDIO_USERS: `maria:${hash}`, STUDIO_SECURE_COOKIES: 'true' });
    expect(settings.users?.get('maria')).toBe(hash);
    expect(settings.secureCookies).toBe(true);
  });

  it.each([
    ['STUDIO_PORT', '99999', 'STUDIO_PORT must be a port number'],
    ['STUDIO_USERS', 'maria', 'has no valid password hash'],
    ['STUDIO_USERS', 'bad name:scrypt$1$1$1$a$b', 'is not a valid name'],
  ])('%s=%s is refused', (name, value, message) => {
    expect(() => readStudioSettings({ [name]: value })).toThrow(message);
  });

  it('reads a users file, naming the line of a mistake', () => {
    const file = '# team\nmaria:scrypt$32768$8$1$c2FsdA==$a2V5\n\nli\n';
    expect(() => readStudioUsers({ STUDIO_USERS_FILE: 'users.txt' }, () => file)).toThrow('users.txt line 4');
    expect(readStudioUsers({ STUDIO_USERS_FILE: 'users.txt' }, () => file.replace('li\n', ''))?.size).toBe(1);
  });
});

describe('sessions', () => {
  it('sets a strict, HttpOnly cookie (Secure behind TLS) and reads it back', () => {
    expect(sessionCookie('abc', { secure: false })).toBe('studio_session=abc; Path=/; HttpOnly; SameSite=Strict; Max-Age=604800');
    expect(sessionCookie('abc', { secure: true })).toMatch(/; Secure$/);
    expect(readSessionCookie('theme=dark; studio_session=abc')).toBe('abc');
  });

  it('ends a session after 8 idle hours', () => {
    let time = 0;
    const store = createSessionStore({ now: () => time });
    const session = store.create('maria');
    time += 7 * 60 * 60 * 1000;
    expect(store.get(session.id)?.user).toBe('maria');
    time += 8 * 60 * 60 * 1000 + 1;
    expect(store.get(session.id)).toBeUndefined();
  });

  it('checks the CSRF token and the origin', () => {
    const session = createSessionStore().create('maria');
    expect(checkCsrf(session, session.csrfToken)).toBe(true);
    expect(checkCsrf(session, `${session.csrfToken.slice(1)}x`)).toBe(false);
    expect(checkCsrf(session, undefined)).toBe(false);
    expect(checkSameOrigin({ origin: 'http://127.0.0.1:4322', host: '127.0.0.1:4322' })).toBe(true);
    expect(checkSameOrigin({ origin: 'https://evil.example', host: '127.0.0.1:4322' })).toBe(false);
    expect(checkSameOrigin({ 'sec-fetch-site': 'cross-site', host: '127.0.0.1:4322' })).toBe(false);
  });
});

describe('sign-in limiter', () => {
  it('refuses the sixth failure for one account within 15 minutes, from any address, then lets it try again', () => {
    let time = 0;
    const limiter = createSignInLimiter({ now: () => time });
    for (let i = 0; i < 5; i++) {
      expect(limiter.check('maria', `10.0.0.${i}`).allowed).toBe(true);
      limiter.recordFailure('maria', `10.0.0.${i}`);
    }
    const refused = limiter.check('maria', '10.0.0.99');
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 900 });
    time += 15 * 60 * 1000;
    expect(limiter.check('maria', '10.0.0.99').allowed).toBe(true);
  });

  it('limits one address trying many accounts', () => {
    const limiter = createSignInLimiter();
    for (let i = 0; i < 20; i++) limiter.recordFailure(`user${i}`, '10.0.0.1');
    expect(limiter.check('someone-else', '10.0.0.1').allowed).toBe(false);
    expect(limiter.check('someone-else', '10.0.0.2').allowed).toBe(true);
  });
});

describe('npm run studio:user -- add <name>', () => {
  const io = (answers: string[], interactive = true) => {
    const output = { out: '', err: '' };
    const commandIo: CommandIo = {
      interactive,
      readPassword: async () => answers.shift() ?? '',
      out: (text) => (output.out += text),
      err: (text) => (output.err += text),
    };
    return { commandIo, output };
  };

  it('prints an entry whose hash verifies the password', async () => {
    const { commandIo, output } = io(['correct horse battery staple', 'correct horse battery staple']);
    expect(await runStudioUserCommand(['add', 'maria'], commandIo)).toBe(0);
    const [name, hash] = [output.out.trim().slice(0, 5), output.out.trim().slice(6)];
    expect(name).toBe('maria');
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true);
  });

  it.each([
    [['correct horse battery staple', 'correct horse battery stable'], 'The two passwords differ'],
    [['short', 'short'], 'too short'],
  ])('refuses %j with a clear message', async (answers, message) => {
    const { commandIo, output } = io(answers);
    expect(await runStudioUserCommand(['add', 'maria'], commandIo)).toBe(1);
    expect(output.err).toContain(message);
    expect(output.out).toBe('');
  });
});
