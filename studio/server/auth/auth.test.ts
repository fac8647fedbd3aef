import { describe, expect, it } from 'vitest';
import { runStudioUserCommand, type CommandIo } from '../../cli/studio-user.ts';
import { hashPassword, verifyPassword } from '../../../server/accounts/passwords.ts';
import { checkCsrf, checkSameOrigin, createSessionStore } from './sessions.ts';
import { createGate } from '../../../server/concurrency.ts';
import { addressKey, createSignInLimiter } from '../../../server/accounts/sign-in-limiter.ts';
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
    expect(readStudioSettings({})).toEqual({ host: '127.0.0.1', port: 4322, secureCookies: false, trustProxy: false });
  });

  it('accepts any address with accounts', async () => {
    const hash = await hashPassword('correct horse battery staple');
    const settings = readStudioSettings({ STUDIO_HOST: '0.0.0.0', STUDIO_USERS: `maria:${hash}`, STUDIO_SECURE_COOKIES: 'true' });
    expect(settings.users?.get('maria')).toBe(hash);
    expect(settings.secureCookies).toBe(true);
  });

  it('reads TRUST_PROXY as the site server does, so sign-in limits count each person behind a proxy', () => {
    expect(readStudioSettings({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readStudioSettings({ TRUST_PROXY: ' 127.0.0.1, 10.0.0.0/8 ' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(readStudioSettings({ TRUST_PROXY: '' }).trustProxy).toBe(false);
  });

  it.each([
    ['TRUST_PROXY', 'everyone', 'TRUST_PROXY must be the number of proxies in front of the server'],
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
  it('ends a session after 8 idle hours', () => {
    let time = 0;
    const store = createSessionStore({ now: () => time });
    const session = store.create('maria');
    time += 7 * 60 * 60 * 1000;
    expect(store.get(session.id)?.user).toBe('maria');
    time += 8 * 60 * 60 * 1000 + 1;
    expect(store.get(session.id)).toBeUndefined();
  });

  it('keeps at most maxSessions, ending the least recently used first', () => {
    const store = createSessionStore({ maxSessions: 3 });
    const [first, second] = [store.create('a'), store.create('b'), store.create('c')];
    store.get(first!.id);
    store.create('d');
    expect(store.size).toBe(3);
    expect(store.get(first!.id)?.user).toBe('a');
    expect(store.get(second!.id)).toBeUndefined();
  });

  it('ends every session of one person at once', () => {
    const store = createSessionStore();
    const [phone, laptop, other] = [store.create('maria'), store.create('maria'), store.create('li')];
    expect(store.destroyUser('maria')).toBe(2);
    expect([store.get(phone.id), store.get(laptop.id)]).toEqual([undefined, undefined]);
    expect(store.get(other.id)?.user).toBe('li');
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
  it('refuses the sixth attempt on one account from one address within 15 minutes, then lets it try again', () => {
    let time = 0;
    const limiter = createSignInLimiter({ now: () => time });
    for (let i = 0; i < 5; i++) expect(limiter.attempt('maria', '10.0.0.1').allowed).toBe(true);
    expect(limiter.attempt('Maria', '10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 900 });
    expect(limiter.attempt('maria', '10.0.0.2').allowed).toBe(true);
    time += 15 * 60 * 1000;
    expect(limiter.attempt('maria', '10.0.0.1').allowed).toBe(true);
  });

  it('counts an attempt as soon as it is allowed, before its password is checked', () => {
    const limiter = createSignInLimiter();
    // Five attempts in flight at once (none has failed yet): the sixth is refused all the same.
    const inFlight = Array.from({ length: 5 }, () => limiter.attempt('maria', '10.0.0.1'));
    expect(inFlight.every((attempt) => attempt.allowed)).toBe(true);
    expect(limiter.attempt('maria', '10.0.0.1').allowed).toBe(false);
  });

  it('does not count an attempt that was withdrawn unchecked', () => {
    const limiter = createSignInLimiter();
    for (let i = 0; i < 10; i++) {
      const attempt = limiter.attempt('maria', '10.0.0.1');
      if (!attempt.allowed) throw new Error('a withdrawn attempt was counted');
      attempt.withdraw();
    }
    expect(limiter.attempt('maria', '10.0.0.1').allowed).toBe(true);
  });

  it('limits many addresses guessing one account, but never the addresses its owner signed in from', () => {
    const limiter = createSignInLimiter();
    const office = limiter.attempt('maria', '198.51.100.4');
    if (!office.allowed) throw new Error('expected the first sign-in to be allowed');
    office.succeeded();
    for (let i = 0; i < 20; i++) expect(limiter.attempt('maria', `203.0.113.${i}`).allowed).toBe(true);
    expect(limiter.attempt('maria', '203.0.113.99').allowed).toBe(false);
    expect(limiter.attempt('maria', '198.51.100.4').allowed).toBe(true);
  });

  it('limits one address trying many accounts, an IPv6 network as one address', () => {
    const limiter = createSignInLimiter();
    for (let i = 0; i < 20; i++) expect(limiter.attempt(`user${i}`, `2001:db8:0:1::${i.toString(16)}`).allowed).toBe(true);
    expect(limiter.attempt('someone-else', '2001:db8:0:1:ffff::1').allowed).toBe(false);
    expect(limiter.attempt('someone-else', '2001:db8:0:2::1').allowed).toBe(true);
    expect(limiter.attempt('someone-else', '10.0.0.2').allowed).toBe(true);
  });

  it.each([
    ['2001:db8:0:1::7', '2001:db8:0:1::/64'],
    ['2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd', '2001:db8:0:1::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['10.0.0.1', '10.0.0.1'],
  ])('counts %s as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });

  it('costs no more per attempt when it holds many addresses', () => {
    const limiter = createSignInLimiter();
    for (let i = 0; i < 20_000; i++) limiter.attempt(`user${i % 50}`, `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) limiter.attempt('maria', `192.0.2.${i & 255}`);
    expect(performance.now() - started).toBeLessThan(200);
  });
});

describe('concurrency gate', () => {
  it('runs at most `running` tasks at once, queues `waiting` more, refuses the rest at once', async () => {
    const gate = createGate({ running: 2, waiting: 1 });
    let active = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const task = () =>
      new Promise<string>((resolve) => {
        active += 1;
        most = Math.max(most, active);
        releases.push(() => {
          active -= 1;
          resolve('done');
        });
      });
    const results = [gate.run(task), gate.run(task), gate.run(task), gate.run(task)];
    expect(await results[3]).toBeUndefined();
    while (releases.length > 0 || active > 0) {
      await new Promise((resolve) => setTimeout(resolve, 1));
      releases.shift()?.();
      // A newcomer arriving while a slot is handed over must not push the count past the limit.
      void gate.run(async () => 'late');
    }
    expect(await Promise.all(results.slice(0, 3))).toEqual(['done', 'done', 'done']);
    expect(most).toBe(2);
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
