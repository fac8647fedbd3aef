// The one way the back office's browser apps (the console, the studio) call their server's JSON API:
// credentials of this origin only, the session's CSRF token on every change (any method but GET),
// JSON bodies (or a picture's bytes), and every answer that is not OK turned into the app's own error
// from the status and the error body, so no screen checks `response.ok` on its own. A 401 is told to
// the app (its session ended) before the error is thrown. Each app keeps its words: it says what
// error a failure is and what a call no answer came to is.

export type ApiClientOptions<Failure extends Error> = {
  /** Headers every call sends (the console asks for JSON). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The error for a call that got no answer (the server is down or the network is gone). */
  unreachable(): Failure;
  /** The error for an answer that is not OK, from its status and its body (`{}` when it held no JSON). */
  failure(status: number, body: unknown): Failure;
  /** Told of a 401 to a call to `url`, before its error is thrown. */
  onUnauthorized?(url: string): void;
};

export type ApiClient = {
  /** The session's CSRF token, sent on every change from now on. */
  setCsrfToken(token: string): void;
  /** Calls `url`; resolves to the answer's JSON (`{}` when it held none), or throws the app's error. */
  call<T>(method: string, url: string, body?: unknown, contentType?: string): Promise<T>;
};

const JSON_TYPE = 'application/json';

export function createApiClient<Failure extends Error>(options: ApiClientOptions<Failure>): ApiClient {
  let csrfToken = '';
  return {
    setCsrfToken(token) {
      csrfToken = token;
    },
    async call<T>(method: string, url: string, body?: unknown, contentType = JSON_TYPE): Promise<T> {
      const headers: Record<string, string> = { ...options.headers };
      if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
      if (body !== undefined) headers['content-type'] = contentType;
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          credentials: 'same-origin',
          ...(body !== undefined ? { body: contentType === JSON_TYPE ? JSON.stringify(body) : (body as BodyInit) } : {}),
        });
      } catch {
        throw options.unreachable();
      }
      const answer = (await response.json().catch(() => ({}))) as unknown;
      if (!response.ok) {
        const failure = options.failure(response.status, answer ?? {});
        if (response.status === 401) options.onUnauthorized?.(url);
        throw failure;
      }
      return answer as T;
    },
  };
}
