// TRUST_PROXY: which X-Forwarded-For entries name the client. Per-client limits (failed sign-ins,
// mails, sign-ups) key on that address, so trusting the whole header would let every client pick
// its own. A hop count trusts exactly the proxies of ours in front: with 1, the client is the
// address our proxy appended, whatever the client wrote before it.
import { isIP } from 'node:net';

/** Fastify's `trustProxy`: off, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

// proxy-addr's names for ranges, besides addresses and CIDRs.
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (version === 4 ? 32 : 128);
}

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') {
    throw new Error(
      'TRUST_PROXY=true is refused: it trusts any X-Forwarded-For chain, so clients could pick their own address. ' +
        'Set the hop count instead, TRUST_PROXY=1 for one reverse proxy of yours in front (2 for a CDN in front of it), or the proxies\' addresses.',
    );
  }
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim()).filter(Boolean);
  const bad = entries.filter((e) => !isAddressOrCidr(e));
  if (bad.length || !entries.length) {
    throw new Error(`TRUST_PROXY must be a hop count (1 for one proxy of yours) or proxy addresses/CIDRs, got "${raw}"`);
  }
  return entries;
}

/**
 * What Fastify is given. A hop count becomes a function trusting the nearest `hops` addresses:
 * Fastify itself now trusts nothing for a number, since a count cannot tell our proxy from a client
 * that reaches the server directly — which is why the server must be reachable only through the
 * proxy (HOST=127.0.0.1, or a firewall) when TRUST_PROXY is set.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  const hops = trust;
  return (_address, hop) => hop < hops;
}
