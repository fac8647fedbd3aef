// One log line per request, written when the answer has gone: method, address (as the app chooses
// to show it), status and time taken. Fastify's own lines about a request (one on arrival, one on
// completion, one more for a route not found) become this one line; its other lines (an error the
// error handler met, a stream that broke) stay as they are. A route that only serves files (the
// site's pages, scripts, styles, pictures) says so with `config: { staticFile: true }`: its lines
// are written at debug, so the info log is the traffic that does something (leads, beacons, the
// console's and the studio's API) and page views never bury it.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route only serves files: its requests are logged at debug, not at info. */
    staticFile?: boolean;
    /**
     * The route counts its answers and logs the count itself (the analytics beacons, thousands a
     * second): no line per request, unless it errored.
     */
    answersCounted?: boolean;
  }
}

/** Route config for a route that only serves files. */
export const STATIC_FILE = { staticFile: true } as const;

export type RequestLogOptions = {
  /**
   * The request's address as the log may show it. The default is the URL as it came; the site
   * server masks e-mail addresses and phone numbers in it. Never the client's address.
   */
  describeUrl?: (url: string) => string;
};

/** Fastify's `logController` for the back office's servers: one line per request. */
export class RequestLog extends LogController {
  readonly #describeUrl: (url: string) => string;

  constructor(options: RequestLogOptions = {}) {
    super();
    this.#describeUrl = options.describeUrl ?? ((url) => url);
  }

  // Nothing on arrival, nor for a route not found: the request's line, written once it is
  // answered, says it all (a 404 included), with its URL shown as the app chooses.
  override incomingRequest(): void {}
  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const config = request.routeOptions.config;
    if (!error && config?.answersCounted === true) return;
    const level = error ? 'error' : config?.staticFile === true ? 'debug' : 'info';
    // Nothing is built for a line the log level leaves out.
    if ((reply.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.(level) === false) return;
    const line = {
      method: request.method,
      url: this.#describeUrl(request.url),
      statusCode: reply.statusCode,
      responseTime: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (level === 'debug') reply.log.debug(line, 'request completed');
    else reply.log.info(line, 'request completed');
  }
}
