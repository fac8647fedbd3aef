// The studio's site builds (scripts/build/incremental.ts says what an incremental build does): an
// incremental build when the change allows one, in a build process kept between publishes
// (scripts/build/build-worker.ts), else the full build, `npm run build`, in a process of its own.
// Either way a crash or a content mistake cannot take the studio down. Whatever goes wrong in an
// incremental build, the full build runs instead: correctness first.
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a publish changed: the content files (relative to the project) and the build live before it. */
export type BuildChange = { readonly changed: readonly string[]; readonly previous: string | null };

export type BuildReport =
  { kind: 'incremental'; rendered: number; written: readonly string[]; ms: number } | { kind: 'full'; reason: string; ms: number };

/** What the build process answers (scripts/build/build-worker.ts). */
type IncrementalResult =
  { kind: 'incremental'; rendered: number; written: readonly string[] } | { kind: 'full'; reason: string } | { kind: 'stale' };
type WorkerAnswer = { id: number; result?: IncrementalResult; error?: string };

const INCREMENTAL_TIME_LIMIT_MS = 60_000;

/** `npm run build` into `outDir`, in its own process: a crash or a content mistake cannot take the studio down. */
export async function runFullBuild(root: string, outDir: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await run(process.execPath, [path.join(root, 'scripts', 'build.ts')], {
    cwd: root,
    env: { ...env, OUT_DIR: outDir },
    maxBuffer: 16 * 1024 * 1024,
  });
}

export type SiteBuilder = {
  build(outDir: string, change: BuildChange): Promise<BuildReport>;
  /** Stops the build process kept for incremental builds. */
  close(): void;
};

/** The studio's builds: incremental when it can be, else full; one at a time (the publisher queues them). */
export function createSiteBuilder(options: { root: string; env?: NodeJS.ProcessEnv; log?: (line: string) => void }): SiteBuilder {
  const { root } = options;
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  let worker: ChildProcess | undefined;
  let nextId = 0;

  const startWorker = (): ChildProcess => {
    const child = fork(path.join(root, 'scripts', 'build', 'build-worker.ts'), [], {
      cwd: root,
      env: { ...env, SITE_ROOT: root },
      execArgv: [],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('exit', () => {
      if (worker === child) worker = undefined;
    });
    // A process that could not start, or a message it can no longer take: its exit (or the time
    // limit below) ends the request, and the full build runs.
    child.on('error', () => {});
    idle(child);
    return child;
  };
  // The build process never keeps the studio running on its own.
  const idle = (child: ChildProcess) => {
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
  };
  const busy = (child: ChildProcess) => {
    child.ref();
    (child.channel as { ref?: () => void } | undefined)?.ref?.();
  };

  const ask = (outDir: string, previous: string): Promise<IncrementalResult> => {
    worker ??= startWorker();
    const child = worker;
    const id = ++nextId;
    busy(child);
    return new Promise<IncrementalResult>((resolve, reject) => {
      const onMessage = (answer: WorkerAnswer) => {
        if (answer.id !== id) return;
        done();
        if (answer.error !== undefined || answer.result === undefined) reject(new Error(answer.error ?? 'no answer'));
        else resolve(answer.result);
      };
      const onExit = (code: number | null) => {
        done();
        reject(new Error(`the build process stopped (exit code ${code})`));
      };
      // An incremental build takes well under a second; one that hangs gives way to the full build.
      const timer = setTimeout(() => {
        done();
        child.kill();
        reject(new Error(`no answer within ${INCREMENTAL_TIME_LIMIT_MS / 1000} s`));
      }, INCREMENTAL_TIME_LIMIT_MS);
      const done = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
        idle(child);
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, outDir, previous }, (error) => {
        if (error) onExit(child.exitCode);
      });
    });
  };

  const incremental = async (outDir: string, previous: string): Promise<Exclude<IncrementalResult, { kind: 'stale' }>> => {
    let result = await ask(outDir, previous);
    // The build process loaded code that has changed on disk since: a new one loads the new code.
    if (result.kind === 'stale') result = await ask(outDir, previous);
    if (result.kind === 'stale') return { kind: 'full', reason: 'the build process could not load the current code' };
    return result;
  };

  return {
    async build(outDir, { changed, previous }) {
      const started = performance.now();
      const what = changed.length > 0 ? changed.join(', ') : 'no file';
      let reason = 'there is no live build to start from';
      if (previous !== null) {
        try {
          const result = await incremental(outDir, previous);
          if (result.kind === 'incremental') {
            const ms = Math.round(performance.now() - started);
            log(
              `Site build (${what}): incremental, ${result.rendered} page(s) rendered, ${result.written.length} file(s) written, in ${ms} ms.`,
            );
            return { ...result, ms };
          }
          reason = result.reason;
        } catch (error) {
          // Correctness first: whatever went wrong, the full build decides.
          reason = `the incremental build failed (${(error as Error).message.split('\n')[0]})`;
          rmSync(outDir, { recursive: true, force: true });
        }
      }
      await runFullBuild(root, outDir, env);
      // The build process gets ready to build from this one while nobody waits.
      worker?.send({ id: ++nextId, prepare: outDir }, () => {});
      const ms = Math.round(performance.now() - started);
      log(`Site build (${what}): full, because ${reason}, in ${ms} ms.`);
      return { kind: 'full', reason, ms };
    },
    close() {
      worker?.kill();
      worker = undefined;
    },
  };
}
