// TRUST_PROXY: whose X-Forwarded-For to believe when taking a client's address. Behind a reverse
// proxy every request comes from the proxy, so limits per address would count the whole audience
// (or the whole team) as one. The relay and the content studio read the setting with this one reader.
import { isIP } from 'node:net';

/** false = none (the socket address), a number = that many proxy hops, or addresses and ranges. */
export type TrustProxy = false | number | readonly string[];

// proxy-addr's names for address ranges, accepted by Fastify's trustProxy next to addresses and CIDRs.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
const WHOLE_NUMBER = /^\d+$/;

const isProxyAddress = (part: string): boolean => {
  if (PROXY_RANGE_NAMES.includes(part)) return true;
  const [address = '', prefix, ...rest] = part.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return WHOLE_NUMBER.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
};

export const readTrustProxy = (raw: string, name: string): { value: TrustProxy } | { error: string } => {
  if (WHOLE_NUMBER.test(raw) && Number(raw) >= 1 && Number(raw) <= 10) return { value: Number(raw) };
  const parts = raw.split(',').map((part) => part.trim());
  return parts.every(isProxyAddress)
    ? { value: Object.freeze(parts) }
    : {
        error:
          `${name} must be the number of proxies in front of the server (1 to 10), or their addresses and ranges ` +
          `(e.g. 127.0.0.1,10.0.0.0/8, or loopback), got ${JSON.stringify(raw)}`,
      };
};

/** A hop count becomes Fastify's own rule for one (its types leave out the number form). */
export function fastifyTrustProxy(trustProxy: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (trustProxy === false) return false;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return [...trustProxy];
}
