// TRUST_PROXY: which X-Forwarded-For entries name the client. Per-client limits (failed sign-ins,
// mails, sign-ups) key on that address, so trusting the whole header would let every client pick
// its own. A hop count trusts exactly the proxies of ours in front: with 1, the client is the
// address our proxy appended, whatever the client wrote before it.
// A setting that trusts (nearly) everyone is refused like `true` (decisions §15): a hop count above
// MAX_HOPS, or a range wider than /8 (IPv4) or /32 (IPv6) — `0.0.0.0/1,128.0.0.0/1` is `true` in
// two halves. proxy-addr's names (loopback, linklocal, uniquelocal) stay allowed: private ranges.
import { isIP } from 'node:net';

/** Fastify's `trustProxy`: off, a hop count, or the proxies' addresses. */
export type TrustProxy = false | number | string[];

// proxy-addr's names for ranges, besides addresses and CIDRs.
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const MAX_HOPS = 5;
const MIN_BITS = { 4: 8, 6: 32 } as const;

/** 'ok', 'bad' (not an address, CIDR or range name) or 'wide' (a range wider than MIN_BITS). */
function checkEntry(entry: string): 'ok' | 'bad' | 'wide' {
  if (RANGE_NAMES.has(entry)) return 'ok';
  const [address, bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (!version || rest.length) return 'bad';
  if (bits === undefined) return 'ok';
  const n = Number(bits);
  if (!/^\d+$/.test(bits) || n > (version === 4 ? 32 : 128)) return 'bad';
  // proxy-addr matches IPv4 clients against an IPv4-mapped range (::ffff:0:0/96 is all of IPv4).
  if (version === 6 && /^::ffff:/i.test(address) && n >= 96) return n - 96 < MIN_BITS[4] ? 'wide' : 'ok';
  return n < MIN_BITS[version as 4 | 6] ? 'wide' : 'ok';
}

const refused = (setting: string, why: string) =>
  new Error(
    `TRUST_PROXY=${setting} is refused: ${why}, so clients could pick their own address. ` +
      "Set the hop count instead, TRUST_PROXY=1 for one reverse proxy of yours in front (2 for a CDN in front of it), or the proxies' addresses.",
  );

export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const value = (raw ?? '').trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') throw refused('true', 'it trusts any X-Forwarded-For chain');
  if (/^\d+$/.test(value)) {
    if (Number(value) > MAX_HOPS)
      throw refused(value, `more than ${MAX_HOPS} hops trusts addresses any client can write`);
    return Number(value);
  }
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const checked = entries.map(checkEntry);
  if (checked.includes('bad') || !entries.length) {
    throw new Error(
      `TRUST_PROXY must be a hop count (1 for one proxy of yours) or proxy addresses/CIDRs, got "${raw}"`,
    );
  }
  const wide = entries.filter((_, i) => checked[i] === 'wide');
  if (wide.length)
    throw refused(
      value,
      `${wide.join(', ')}: wider than /${MIN_BITS[4]} (IPv4) or /${MIN_BITS[6]} (IPv6), any client can be in it`,
    );
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
