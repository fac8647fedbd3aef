// Why a server could not listen, as one sentence naming the setting to change. Shared by the site's
// server (HOST, PORT) and the studio (STUDIO_HOST, STUDIO_PORT), so both say it alike.

export type ListenSettings = {
  readonly host: string;
  readonly port: number;
  /** The settings' names as the operator writes them. */
  readonly hostSetting: string;
  readonly portSetting: string;
  /** What else may hold the port, for the advice: "server", "studio". */
  readonly what: string;
};

/** The sentence for a listen error (address in use, a host that does not resolve, …); undefined for any other error. */
export function describeListenFailure(error: unknown, settings: ListenSettings): string | undefined {
  const { host, port, hostSetting, portSetting, what } = settings;
  const { code, syscall } = (typeof error === 'object' && error !== null ? error : {}) as NodeJS.ErrnoException;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') return `${where} is already in use: stop the other ${what} or set ${portSetting}`;
  if (syscall === 'getaddrinfo') {
    return `${hostSetting} "${host}" does not resolve to an address (${code}): set ${hostSetting} to an address of this machine, such as 127.0.0.1 or 0.0.0.0`;
  }
  if (code === 'EADDRNOTAVAIL') {
    return `${hostSetting} "${host}" is not an address of this machine: set ${hostSetting} to one, such as 127.0.0.1 or 0.0.0.0`;
  }
  if (code === 'EACCES')
    return `${where} may not be used by this user: set ${portSetting} to 1024 or above, or give the ${what} that right`;
  return undefined;
}
