// The studio's HTTP application: its browser app, the preview, and a JSON API over the workspace
// (content files and drafts), the publisher and the image library. It never listens: studio/main.ts
// does, and tests call `inject`.
//
// Who may do what is decided once per request by access.ts, on the route that will run: every route
// needs a session unless it says otherwise, and every change (any method but GET/HEAD) also needs the
// session's CSRF token in X-CSRF-Token, a JSON body (pictures: the picture's type), and no sign from
// the browser that it comes from another site. Without sign-in configured (one person on their own
// machine, loopback only) the session is opened for the local editor on first visit; with
// STUDIO_USERS set, people sign in, and attempts are limited per account and per address.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { parse } from 'yaml';
import { CONNECTION_LIMITS, type ConnectionLimits } from '../../server/connection-limits.ts';
import { fastifyTrustProxy, type TrustProxy } from '../../server/trust-proxy.ts';
import { pageAddressProblem } from '../../content-model/addresses.ts';
import { ContentError, type ContentIssue } from '../../content-model/content-issue.ts';
import { TOO_MANY_ALIASES } from '../../content-model/formats/yaml-source.ts';
import { ARTICLE_PATH, loadContent } from '../../content-model/load/load-content.ts';
import { blogIndexEntry } from '../../content-model/blog-index.ts';
import { diffHunks } from './line-diff.ts';
import { writeFrontMatter } from '../../content-model/formats/front-matter.ts';
import { collectionPath, CONTENT_KINDS, kindDefinition } from '../../content-model/kinds.ts';
import { replaceLinks } from '../../content-model/links.ts';
import { readMarkdownFile, stringifyYaml, updateMarkdownFile, updateYaml } from '../../content-model/formats/yaml-edit.ts';
import { ACCESS_MESSAGES, canonicalUrl, installAccessControl, MEDIA_TYPES } from './access.ts';
import { createGate } from './concurrency.ts';
import { verifyPassword } from './auth/passwords.ts';
import { clearSessionCookie, createSessionStore, readSessionCookie, sessionCookie } from './auth/sessions.ts';
import { createSignInLimiter } from './auth/sign-in-limiter.ts';
import { isLoopbackHost, LOOPBACK_ADDRESS } from './auth/loopback.ts';
import { createImageLibrary, ImageError, MAX_UPLOAD_BYTES, MAX_UPLOAD_TEXT } from './images.ts';
import { JSON_BODY_LIMIT, jsonShapeProblem } from './json-body.ts';
import { createPublisher, type PublishResult } from './publish.ts';
import { findReferences } from './references.ts';
import type { Changes, OpenedFile as OpenedFileAnswer } from '../api-types.ts';
import { createWorkspace, PAGE_NAME_PATTERN, WorkspaceError, type ContentFile, type OpenedFile } from './workspace.ts';

export type StudioOptions = {
  root: string;
  /** The built browser app (index.html, preview.html, assets/). */
  appDir: string;
  /** DIST_DIR of the site this checkout serves. */
  distDir: string;
  /** Name → password hash; undefined: one local editor, no sign-in. */
  users?: ReadonlyMap<string, string>;
  /** The editor's name in commits when nobody signs in. */
  localEditor?: string;
  secureCookies?: boolean;
  /** TRUST_PROXY, read as the site's server reads it: whose X-Forwarded-For names the client. */
  trustProxy?: TrustProxy;
  /** Shorter limits for tests; the studio uses the site server's own. */
  connectionLimits?: ConnectionLimits;
  stateDir?: string;
  /** Tests swap the site build for a quick one. */
  build?: (outDir: string) => Promise<void>;
  logLevel?: string;
};

/**
 * The whole request must arrive within this. The site server allows 30 s for a lead of 16 KiB; a
 * 10 MB picture needs longer on a slow line (10 MB in two minutes is about 0.7 Mbit/s).
 */
const REQUEST_TIMEOUT_MS = 120_000;

/** Password hashes computed at once, and sign-ins waiting for one; more are told to try again. */
const SIGN_IN_GATE = { running: 2, waiting: 8 };

const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // emotion inserts its rules in <style> elements at run time, in the app and in the preview.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export function buildStudioApp(options: StudioOptions): FastifyInstance {
  const { root, users } = options;
  const stateDir = options.stateDir ?? path.join(root, '.studio');
  const workspace = createWorkspace({ root, stateDir });
  const publisher = createPublisher({
    root,
    workspace,
    distDir: options.distDir,
    stateDir,
    ...(options.build ? { build: options.build } : {}),
  });
  const images = createImageLibrary({ publicDir: path.join(root, 'public') });
  const sessions = createSessionStore();
  const limiter = createSignInLimiter();
  const hashing = createGate(SIGN_IN_GATE);
  /** Without sign-in: the one session of the person at this computer. */
  let localSessionId: string | undefined;
  const secure = options.secureCookies ?? false;
  const localEditor = options.localEditor ?? 'local editor';
  const schemaDir = path.join(root, 'schema');

  const limits = options.connectionLimits ?? CONNECTION_LIMITS;
  const requestTimeoutMs = options.connectionLimits ? limits.requestTimeoutMs : REQUEST_TIMEOUT_MS;
  const app = Fastify({
    logger: { level: options.logLevel ?? 'info' },
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: fastifyTrustProxy(options.trustProxy ?? false),
    // Every spelling of a path (percent-escapes, doubled slashes, dot segments, a trailing slash,
    // capitals) reaches the router as one canonical path, so it finds the same route, whose own
    // settings decide access.
    rewriteUrl: (request) => canonicalUrl(request.url ?? '/'),
    routerOptions: { caseSensitive: false },
    // The site server's limits: a client that sends its headers slowly, or nothing at all, is cut off.
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: limits.checkIntervalMs,
    },
    requestTimeout: requestTimeoutMs,
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
  });

  // Only the bodies a route reads are parsed: JSON, bounded in shape, and pictures. Fastify's
  // text/plain parser goes, so a plain HTML form from another site never reaches a route.
  app.removeContentTypeParser(['text/plain', 'application/json']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error) return done(error);
      const problem = jsonShapeProblem(value);
      if (problem) return done(new BodyShapeError(problem));
      done(null, value);
    });
  });
  app.addContentTypeParser([...MEDIA_TYPES.image], { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.addHook('onSend', async (_request, reply, payload) => {
    // A route may set a stricter policy of its own (pictures do).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', STUDIO_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('x-frame-options', 'SAMEORIGIN');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  // Without sign-in the studio trusts whoever reaches it, which only this computer can. A web page
  // elsewhere could still point its own name at 127.0.0.1 (DNS rebinding) and talk to the studio as
  // its own origin: so every request must be addressed to a loopback name.
  if (!users) {
    app.addHook('onRequest', async (request, reply) => {
      if (isLoopbackHost(request.headers.host)) return;
      // The request reached the studio's own port, so the Host header carries it.
      const port = /:(\d+)$/.exec(request.headers.host ?? '')?.[1];
      return reply
        .code(421)
        .type('text/plain')
        .send(`This studio answers only on this computer: open http://${LOOPBACK_ADDRESS}${port ? `:${port}` : ''}/ (or localhost).`);
    });
  }

  // Who is asking, and may they do what the route they reached does?
  installAccessControl(app, {
    sessionOf: (request) => {
      const id = readSessionCookie(request.headers.cookie);
      return id ? sessions.get(id) : undefined;
    },
  });

  app.setErrorHandler((error: Error, request, reply) => {
    if (error instanceof WorkspaceError)
      return reply.code(error.status).send({ message: error.message, ...(error.reason ? { reason: error.reason } : {}) });
    if (error instanceof ImageError) return reply.code(error.status).send({ message: error.message });
    if (error instanceof BodyShapeError) return reply.code(400).send({ message: error.message });
    if (error instanceof NoSessionError) return reply.code(401).send({ message: error.message });
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) {
      const picture = MEDIA_TYPES.image.includes(String(request.headers['content-type']).split(';')[0]!.trim().toLowerCase());
      return reply.code(413).send({
        message: picture
          ? `That picture is too large: it can be at most ${MAX_UPLOAD_TEXT}.`
          : `That change is too large: the studio takes at most ${JSON_BODY_LIMIT / 1024 / 1024} MB at once.`,
      });
    }
    if (status === 415)
      return reply.code(415).send({ message: 'This kind of upload is not accepted: send JSON, or a PNG, JPEG or WebP picture.' });
    if (status !== undefined && status >= 400 && status < 500)
      return reply.code(status).send({ message: 'The request was not understood.' });
    request.log.error({ err: error }, 'studio request failed');
    return reply.code(500).send({ message: 'Something went wrong in the studio. Nothing was lost: your drafts are kept. Try again.' });
  });

  /** Who is making a change: always the person signed in to the session, never a default. */
  const editorOf = (request: FastifyRequest): string => {
    const user = request.studioSession?.user;
    if (!user) throw new NoSessionError(ACCESS_MESSAGES.signIn);
    return user;
  };

  // ---- session -----------------------------------------------------------------------------

  const anyone = { config: { access: 'anyone' } } as const;
  const publicFile = { config: { access: 'public' } } as const;

  app.get('/api/session', anyone, async (request, reply) => {
    let session = request.studioSession;
    if (!session && !users) {
      // One person on their own machine: no password to ask for, and one session for all their tabs,
      // so a page elsewhere that makes the browser ask again and again cannot crowd it out.
      session = (localSessionId !== undefined ? sessions.get(localSessionId) : undefined) ?? sessions.create(localEditor);
      localSessionId = session.id;
      reply.header('set-cookie', sessionCookie(session.id, { secure }));
    }
    return { signInRequired: users !== undefined, user: session?.user ?? null, ...(session ? { csrfToken: session.csrfToken } : {}) };
  });

  app.post('/api/session', anyone, async (request, reply) => {
    if (!users) return reply.code(400).send({ message: 'Sign-in is not configured for this studio.' });
    const body = request.body as { name?: unknown; password?: unknown } | undefined;
    const name = typeof body?.name === 'string' ? body.name.trim().slice(0, 64) : '';
    const password = typeof body?.password === 'string' ? body.password.slice(0, 1024) : '';
    // Counted before the password is checked, so attempts sent together cannot pass the limit.
    const attempt = limiter.attempt(name, request.ip);
    if (!attempt.allowed) {
      return reply
        .code(429)
        .header('retry-after', String(attempt.retryAfterSeconds))
        .send({ message: `Too many attempts. Try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} minute(s).` });
    }
    const hash = users.get(name);
    // An unknown name costs the same time as a wrong password, so names cannot be guessed by timing.
    const valid = await hashing.run(() => verifyPassword(password, hash ?? DUMMY_HASH));
    if (valid === undefined) {
      // Never checked, so never counted: a burst from strangers cannot use up a person's attempts.
      attempt.withdraw();
      return reply
        .code(503)
        .header('retry-after', '2')
        .send({ message: 'The studio is busy signing other people in. Try again in a few seconds.' });
    }
    if (!hash || !valid) {
      request.log.warn({ account: name.slice(0, 64) }, 'studio sign-in failed');
      return reply.code(401).send({ message: 'That name and password do not match.' });
    }
    attempt.succeeded();
    // A new session at every sign-in: an id someone saw before signing in never becomes signed in.
    if (request.studioSession) sessions.destroy(request.studioSession.id);
    const session = sessions.create(name);
    reply.header('set-cookie', sessionCookie(session.id, { secure }));
    return { user: name, csrfToken: session.csrfToken, signInRequired: true };
  });

  /** Signs out this browser, or with `?everywhere=true` every session of the same person. */
  app.delete('/api/session', async (request, reply) => {
    const session = request.studioSession!;
    const everywhere = (request.query as { everywhere?: unknown }).everywhere === 'true';
    const ended = everywhere ? sessions.destroyUser(session.user) : (sessions.destroy(session.id), 1);
    reply.header('set-cookie', clearSessionCookie({ secure }));
    return { user: null, ended };
  });

  // ---- reading ---------------------------------------------------------------------------------

  app.get('/api/schemas', async () => {
    const files: Record<string, unknown> = {};
    for (const name of readdirSync(schemaDir).filter((f) => f.endsWith('.schema.json'))) {
      files[name] = JSON.parse(readFileSync(path.join(schemaDir, name), 'utf8')) as unknown;
    }
    return files;
  });

  app.get('/api/entries', async () => ({ entries: workspace.listEntries(), canUndo: publisher.canUndo(), history: publisher.history(10) }));

  app.get('/api/file', async (request) => {
    const opened = workspace.open((request.query as { path?: unknown }).path);
    return describeOpened(opened, issuesFor(opened.file));
  });

  app.get('/api/references', async (request) => {
    const file = workspace.contentFile((request.query as { path?: unknown }).path);
    return { references: findReferences(workspace, file) };
  });

  app.get('/api/preview-data', async () => previewData());

  app.get('/api/changes', async (): Promise<Changes> => {
    const drafts = workspace.listDrafts();
    const entries = new Map(workspace.listEntries().map((entry) => [entry.path, entry]));
    const issues = publisher.check(drafts);
    return {
      files: drafts.map((draft) => {
        const before = workspace.readDisk(workspace.contentFile(draft.path))?.text ?? '';
        return {
          path: draft.path,
          title: entries.get(draft.path)?.title ?? draft.path,
          change: draft.baseVersion === null ? 'added' : draft.text === null ? 'deleted' : 'changed',
          updatedBy: draft.updatedBy,
          hunks: diffHunks(before, draft.text ?? ''),
        };
      }),
      issues,
      publishable: drafts.length > 0 && issues.length === 0,
    };
  });

  app.get('/api/images', async () => ({ images: images.list() }));

  // ---- changing --------------------------------------------------------------------------------

  app.put('/api/file', async (request) => {
    const body = request.body as { path?: unknown; data?: unknown; revision?: unknown; diskVersion?: unknown };
    const opened = workspace.open(body.path);
    const text = nextText(opened, body.data);
    const draft = workspace.saveDraft(opened.file.path, text, seenOf(body), editorOf(request));
    // `edited` is false when the change went back to the live text (the draft was dropped).
    return { revision: draft.revision, edited: draft.revision > 0, issues: issuesFor(opened.file) };
  });

  app.post('/api/file', async (request) => {
    const body = request.body as { kind?: unknown; name?: unknown; copyFrom?: unknown; title?: unknown };
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!PAGE_NAME_PATTERN.test(name))
      throw new WorkspaceError('Use lowercase letters, digits and dashes for the name, such as "spring-offer".');
    const kind = body.kind === 'article' ? 'article' : 'page';
    const target = collectionPath(kind, name);
    const text = kind === 'article' ? newArticleText(name, body.copyFrom) : newPageText(name, body.copyFrom);
    const draft = workspace.createDraft(target, text, editorOf(request));
    return { path: draft.path, revision: draft.revision };
  });

  app.post('/api/rename', async (request) => {
    const body = request.body as { path?: unknown; address?: unknown; revision?: unknown; diskVersion?: unknown };
    const opened = workspace.open(body.path);
    if (opened.file.kind !== 'page') throw new WorkspaceError('Only pages have an address to change.');
    const address = typeof body.address === 'string' ? body.address.trim() : '';
    if (!/^\/[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(address))
      throw new WorkspaceError('An address starts with "/" and has lowercase letters, digits and dashes, such as "/spring-offer".');
    const current = parseData(opened);
    const oldAddress = (current as { path?: string }).path;
    if (!oldAddress) throw new WorkspaceError('This page has no address yet.');
    // The same rule as the content check: not an address an article, the server or the build uses.
    const articleSlugs = new Set(
      workspace.listEntries().flatMap((entry) => (entry.kind === 'article' ? [workspace.contentFile(entry.path).name] : [])),
    );
    const problem = pageAddressProblem(address, { articleSlugs });
    if (problem) throw new WorkspaceError(problem);
    if (workspace.listEntries().some((entry) => entry.address === address && entry.path !== opened.file.path)) {
      throw new WorkspaceError(`Another page already has the address "${address}".`, 409, 'exists');
    }
    // Found before the address changes: what links to the old address.
    const references = findReferences(workspace, opened.file);
    workspace.saveDraft(opened.file.path, nextText(opened, { ...(current as object), path: address }), seenOf(body), editorOf(request));
    // Links to the old address follow it, in the navigation, the footer and every page.
    const updated: string[] = [];
    for (const reference of references) {
      if (reference.path === opened.file.path) continue;
      const other = workspace.open(reference.path);
      const data = replaceLinks(parseData(other), oldAddress, address);
      workspace.saveDraft(
        other.file.path,
        nextText(other, data),
        { revision: other.draft?.revision ?? 0, diskVersion: other.disk?.version ?? null },
        editorOf(request),
      );
      updated.push(reference.title);
    }
    return { address, updated };
  });

  app.delete('/api/file', async (request) => {
    const query = request.query as { path?: unknown; revision?: unknown; diskVersion?: unknown };
    const opened = workspace.open(query.path);
    if (kindDefinition(opened.file.kind).shape === 'singleton')
      throw new WorkspaceError('The site settings and the ROI numbers cannot be deleted.');
    if (!opened.disk) {
      workspace.discardDraft(opened.file.path);
      return { deleted: true };
    }
    workspace.saveDraft(
      opened.file.path,
      null,
      seenOf({ revision: Number(query.revision ?? 0), diskVersion: query.diskVersion }),
      editorOf(request),
    );
    return { deleted: true };
  });

  app.post('/api/discard', async (request) => {
    workspace.discardDraft((request.body as { path?: unknown }).path);
    return { discarded: true };
  });

  /** After a conflict: the person's version becomes a new page beside the one on disk. */
  app.post('/api/keep-both', async (request) => {
    const body = request.body as { path?: unknown; data?: unknown; revision?: unknown };
    const opened = workspace.open(body.path);
    // The draft on the server holds nothing the browser's version lacks only when the browser had
    // seen its latest revision; otherwise it is another tab's or person's work and stays.
    const sawLatestDraft = !opened.draft || opened.draft.revision === Number(body.revision);
    if (opened.file.kind === 'site' || opened.file.kind === 'roi') {
      if (!sawLatestDraft)
        throw new WorkspaceError(
          `${opened.file.path} has a newer draft from another tab or person. Reload it, then make your change again.`,
          409,
          'draft-changed',
        );
      // One file for the whole site: keeping both means the person's version, on top of the new disk version.
      const disk = workspace.readDisk(opened.file);
      workspace.discardDraft(opened.file.path);
      const reopened = workspace.open(opened.file.path);
      const draft = workspace.saveDraft(
        opened.file.path,
        nextText(reopened, body.data),
        { revision: 0, diskVersion: disk?.version ?? null },
        editorOf(request),
      );
      return { path: opened.file.path, revision: draft.revision };
    }
    const copyName = freeName(opened.file.name, opened.file.kind);
    if (typeof body.data !== 'object' || body.data === null || Array.isArray(body.data))
      throw new WorkspaceError('The page data is missing.');
    let data = body.data as Record<string, unknown>;
    if (opened.file.kind === 'page')
      data = { ...data, path: `${String(data.path ?? '')}-${copyName.slice(opened.file.name.length + 1)}`, draft: true };
    const text = opened.file.kind === 'article' ? updateMarkdownFile(currentTextOf(opened), checkArticleData(data)) : stringifyYaml(data);
    const draft = workspace.createDraft(collectionPath(opened.file.kind, copyName), text, editorOf(request));
    // The browser's version now lives in the copy: the original goes back to what is on disk, unless
    // its draft holds someone else's newer work.
    if (sawLatestDraft) workspace.discardDraft(opened.file.path);
    return { path: draft.path, revision: draft.revision };
  });

  app.post('/api/publish', async (request, reply) => sendPublish(reply, await publisher.publish(editorOf(request))));
  app.post('/api/undo', async (request, reply) => sendPublish(reply, await publisher.undoLast(editorOf(request))));

  app.post('/api/images', { bodyLimit: MAX_UPLOAD_BYTES, config: { accepts: ['image'] } }, async (request) => {
    const name = String((request.query as { name?: unknown }).name ?? 'image');
    return images.store(request.body as Buffer, name);
  });

  // ---- files -----------------------------------------------------------------------------------

  // Each route sets its own caching: the plugin's default would mark session-only pictures as
  // cacheable by shared caches.
  app.register(fastifyStatic, { root: options.appDir, prefix: '/', index: false, wildcard: false, serve: false, cacheControl: false });
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).send({ message: 'Not found' }));
  const sendAppFile = (file: string) => async (_request: FastifyRequest, reply: FastifyReply) => {
    if (!existsSync(path.join(options.appDir, file)))
      return reply.code(503).type('text/plain').send('The studio app is not built: run `npm run studio`.');
    return reply.header('cache-control', 'no-cache').sendFile(file, options.appDir);
  };
  app.get('/', publicFile, sendAppFile('index.html'));
  app.get('/preview', publicFile, sendAppFile('preview.html'));
  app.get('/assets/*', publicFile, async (request, reply) => {
    const file = (request.params as { '*': string })['*'];
    if (!/^[\w.-]+$/.test(file) || !existsSync(path.join(options.appDir, 'assets', file)))
      return reply.code(404).send({ message: 'Not found' });
    return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(`assets/${file}`, options.appDir);
  });
  // The site's pictures, so the preview shows what the live site shows; only with a session, since
  // unpublished uploads are among them.
  app.get('/images/*', async (request, reply) => {
    const file = images.resolve((request.params as { '*': string })['*']);
    if (!file) return reply.code(404).send({ message: 'Not found' });
    // An SVG opened on its own is a document on the studio's origin: it may draw, never run script.
    reply.header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'");
    // Unpublished uploads are among them: never kept by a shared cache.
    reply.header('cache-control', 'private, no-store');
    return reply.sendFile(file, path.join(root, 'public', 'images'));
  });

  return app;

  // ---- helpers (closures over the workspace) ---------------------------------------------------

  function currentTextOf(opened: OpenedFile): string {
    return workspace.currentText(opened) ?? '';
  }

  function parseData(opened: OpenedFile): unknown {
    const text = currentTextOf(opened);
    try {
      if (opened.file.kind === 'article') return readMarkdownFile(text);
      return parse(text) as unknown;
    } catch (error) {
      throw new WorkspaceError(`${opened.file.path} cannot be read: ${yamlErrorText(error)}`);
    }
  }

  function nextText(opened: OpenedFile, data: unknown): string {
    if (typeof data !== 'object' || data === null) throw new WorkspaceError('The page data is missing.');
    const text = currentTextOf(opened);
    if (opened.file.kind === 'article') return updateMarkdownFile(text, checkArticleData(data));
    return text ? updateYaml(text, data) : stringifyYaml(data);
  }

  function describeOpened(opened: OpenedFile, issues: ContentIssue[]): OpenedFileAnswer {
    const text = workspace.currentText(opened);
    let data: unknown = null;
    let parseError: string | undefined;
    if (text !== null) {
      try {
        data = opened.file.kind === 'article' ? readMarkdownFile(text) : (parse(text) as unknown);
      } catch (error) {
        parseError = `This file has a mistake the studio cannot show as a form: ${yamlErrorText(error)} Fix it in a text editor, or discard the draft.`;
      }
    }
    return {
      path: opened.file.path,
      kind: opened.file.kind,
      name: opened.file.name,
      data,
      ...(parseError ? { parseError } : {}),
      deleted: text === null,
      isNew: !opened.disk,
      edited: opened.draft !== undefined,
      revision: opened.draft?.revision ?? 0,
      diskVersion: opened.disk?.version ?? null,
      issues,
    };
  }

  function issuesFor(file: ContentFile) {
    return publisher.check(workspace.listDrafts()).filter((issue) => issue.file === file.path);
  }

  function previewData() {
    // A page or article with a mistake is left out; the one being edited is drawn from the form.
    let content;
    try {
      content = loadContent({ root, overrides: workspace.draftOverrides(), includeDrafts: true, skipInvalid: true });
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      // The site settings or ROI numbers in a draft have a mistake: the preview uses the ones on disk.
      try {
        content = loadContent({ root, includeDrafts: true, skipInvalid: true });
      } catch (diskError) {
        if (!(diskError instanceof ContentError)) throw diskError;
        // Nothing can be drawn without them: say which file to fix, and how.
        const [first] = diskError.issues;
        throw new WorkspaceError(
          `The preview cannot be drawn: ${first ? `${first.file}:${first.line}:${first.column} ${first.message}` : 'the site settings or the ROI numbers have a mistake.'} Fix it in a text editor; the studio keeps your drafts.`,
          422,
        );
      }
    }
    return {
      site: { ...content.site, siteUrl: '', leadEndpoint: '' },
      roi: content.roi,
      posts: content.posts.map(blogIndexEntry),
      articles: Object.fromEntries(content.posts.map((post) => [post.slug, { ...blogIndexEntry(post), body: post.body }])),
      pages: Object.fromEntries(
        content.pages.filter((p) => p.page.path === '/' || p.page.path === ARTICLE_PATH).map((p) => [p.page.path, p.page]),
      ),
    };
  }

  function seenOf(body: { revision?: unknown; diskVersion?: unknown }) {
    const revision = Number(body.revision ?? 0);
    if (!Number.isInteger(revision) || revision < 0) throw new WorkspaceError('The revision is not valid.');
    return { revision, diskVersion: typeof body.diskVersion === 'string' ? body.diskVersion : null };
  }

  function freeName(original: string, kind: 'page' | 'article'): string {
    const existing = new Set(workspace.listEntries().map((entry) => entry.path));
    for (let n = 2; ; n++) {
      const name = `${original}-copy${n === 2 ? '' : `-${n}`}`;
      if (!existing.has(collectionPath(kind, name))) return name;
    }
  }

  function newPageText(name: string, copyFrom: unknown): string {
    if (typeof copyFrom === 'string' && copyFrom) {
      const source = workspace.open(copyFrom);
      if (source.file.kind !== 'page') throw new WorkspaceError('Only a page can be copied into a new page.');
      const data = parseData(source) as Record<string, unknown>;
      return stringifyYaml({ ...data, path: `/${name}`, title: `${String(data.title ?? name)} (copy)`.slice(0, 70), draft: true });
    }
    return stringifyYaml(CONTENT_KINDS.page.startingData(name));
  }

  function newArticleText(name: string, copyFrom: unknown): string {
    if (typeof copyFrom === 'string' && copyFrom) {
      const source = workspace.open(copyFrom);
      if (source.file.kind !== 'article') throw new WorkspaceError('Only an article can be copied into a new article.');
      const { frontMatter, body } = parseData(source) as { frontMatter: Record<string, unknown>; body: string };
      const order = Math.max(0, ...previewData().posts.map((post) => Number((post as { order?: number }).order ?? 0))) + 1;
      const copy = { ...frontMatter, title: `${String(frontMatter.title ?? name)} (copy)`, order, draft: true };
      return writeFrontMatter(stringifyYaml(copy), body);
    }
    const today = new Date().toISOString().slice(0, 10);
    // New articles go after every other, out of the way of the ones people have ordered.
    const order = workspace.listEntries().filter((entry) => entry.kind === 'article').length + 101;
    const frontMatter = CONTENT_KINDS.article.startingData(name, { today, order });
    return writeFrontMatter(stringifyYaml(frontMatter), 'Write the article here. Blank lines separate paragraphs.\n');
  }
}

/** An article as the editor sends it: its details (front matter) and its text. */
function checkArticleData(data: unknown): { frontMatter: object; body: string } {
  const next = data as { frontMatter?: unknown; body?: unknown };
  if (typeof next.body !== 'string' || typeof next.frontMatter !== 'object' || next.frontMatter === null || Array.isArray(next.frontMatter))
    throw new WorkspaceError('An article needs its details and its text.');
  return { frontMatter: next.frontMatter, body: next.body };
}

/** A YAML reading error in one plain sentence. */
function yamlErrorText(error: unknown): string {
  // yaml refuses to expand anchors that repeat past its limit with a ReferenceError.
  if (error instanceof ReferenceError) return TOO_MANY_ALIASES;
  return `${(error as Error).message.split('\n')[0]!.replace(/\.$/, '')}.`;
}

/** A JSON body whose shape no content has (too deep, too many values): refused before any route reads it. */
class BodyShapeError extends Error {
  override name = 'BodyShapeError';
}

/** A change reached a handler with nobody signed in: it is refused rather than credited to anyone. */
class NoSessionError extends Error {
  override name = 'NoSessionError';
}

function sendPublish(reply: FastifyReply, result: PublishResult) {
  if (result.ok) return reply.send(result);
  const status = { nothing: 409, invalid: 422, conflict: 409, 'build-failed': 500, 'undo-impossible': 409 }[result.reason];
  return reply.code(status).send(result);
}

/** A valid hash of a password nobody has: verifying against it takes as long as against a real one. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
