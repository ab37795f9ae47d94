// Where the server may send Web Pushes (decisions §12): a push endpoint is a URL the player gives,
// and the server POSTs to it, so without a policy any player could make the server reach its own
// network (loopback, cloud metadata at 169.254.169.254, private ranges). Only public https hosts on
// port 443 pass; PUSH_ALLOWED_HOSTS names the exceptions (a self-hosted push service, tests).
//
// Checked twice. When subscribing: the URL itself (WHATWG parsing, which reads every IPv4 notation
// — `2130706433`, `0x7f000001`, `0177.0.0.1`, `127.1` — as the address it means). When sending:
// again, and the host name is resolved by the agent's own `lookup`, which refuses the connection
// if any address is not public and otherwise connects to exactly the addresses it checked, so a
// DNS answer cannot change between the check and the connection.
import { lookup as dnsLookup } from 'node:dns';
import { Agent } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { domainToASCII } from 'node:url';

/** Exact host names (or IP literals) allowed although not public, normalized as URL host names. */
export type AllowedHosts = ReadonlySet<string>;

// Not reachable on the public internet, or special-purpose (RFC 6890 and its IANA registries).
const special = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", incl. the unspecified address
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  special.addSubnet(net, prefix, 'ipv4');
// IPv6: only global unicast (2000::/3) can be public; within it these are special. Everything
// outside it is refused, among them ::1, ::, IPv4-mapped ::ffff:0:0/96, NAT64 64:ff9b::/96,
// unique-local fc00::/7, link-local fe80::/10 and multicast ff00::/8.
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments, incl. Teredo 2001::/32
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address inside
  ['3fff::', 20], // documentation
] as const)
  special.addSubnet(net, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** True for an address that is reachable on the public internet (not loopback, private, link-local, …). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !special.check(address, 'ipv4');
  if (family === 6) return globalUnicast.check(address, 'ipv6') && !special.check(address, 'ipv6');
  return false;
}

/**
 * The one form of a host name every check here compares (the subscribe check, PUSH_ALLOWED_HOSTS
 * and the send-time lookup), or null for a name no resolver would take: `[::1]` → `::1`; names
 * percent-decoded, IDNA to ASCII and lower case (domainToASCII, as WHATWG URL does), and without
 * trailing dots. Every trailing dot goes, not one: the resolver reads `localhost..` as `localhost`,
 * so a check that stripped one saw `localhost.`, matched no rule and let it in (issue 21).
 */
export function pushHost(hostname: string): string | null {
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  if (isIP(hostname)) return hostname.toLowerCase();
  let name: string;
  try {
    name = domainToASCII(decodeURIComponent(hostname));
  } catch {
    return null;
  }
  name = name.replace(/\.+$/, '');
  // Empty (domainToASCII's answer to invalid IDNA) or with an empty label inside.
  if (name === '' || name.split('.').some((label) => label === '')) return null;
  return name;
}

// Names that lead into the server's own network: RFC 6761/6762/8375 special-use names, the
// `.internal` of cloud metadata (metadata.google.internal), and single labels that the resolver's
// search domains would complete to an internal host.
const PRIVATE_NAME = /(^|\.)(localhost|local|internal|home\.arpa)$/;

/** Reads PUSH_ALLOWED_HOSTS: comma-separated host names or IP literals, normalized as URL hosts. */
export function parseAllowedHosts(raw: string | undefined): AllowedHosts {
  const hosts = new Set<string>();
  for (const entry of (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    let host: string;
    try {
      const url = new URL(`https://${entry}/`);
      if (url.port !== '' || url.username !== '' || url.pathname !== '/' || url.host !== url.hostname)
        throw new Error();
      const normalized = pushHost(url.hostname);
      if (normalized === null) throw new Error();
      host = normalized;
    } catch {
      throw new Error(`PUSH_ALLOWED_HOSTS: "${entry}" is not a host name`);
    }
    hosts.add(host);
  }
  return hosts;
}

/** What is wrong with an endpoint under the policy (a message for the `endpoint` field), or null. */
export function endpointProblem(endpoint: string, allowed: AllowedHosts): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'Must be an https URL';
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '')
    return 'Must be an https URL without user name or password';
  const host = pushHost(url.hostname);
  if (host === null) return 'Must be a public push service host';
  // A self-hosted push service may run on any port.
  if (allowed.has(host)) return null;
  if (url.port !== '') return 'Push services are reached on port 443 only';
  if (isIP(host))
    return isPublicAddress(host) ? null : 'Must be a public push service, not a private or special address';
  if (!host.includes('.') || PRIVATE_NAME.test(host)) return 'Must be a public push service host';
  return null;
}

export class PushEndpointRefused extends Error {
  constructor(host: string, addresses: string[]) {
    super(`push endpoint host ${host} resolves to a non-public address (${addresses.join(', ')})`);
    this.name = 'PushEndpointRefused';
  }
}

type Resolved = { address: string; family: number };
export type ResolveAll = (host: string) => Promise<Resolved[]>;

const systemResolve: ResolveAll = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))),
  );

/**
 * A `lookup` for sockets to push services: resolves every address of the host, refuses them all
 * when any one is not public (unless the host is allowed), and hands the connection exactly those
 * checked addresses. Node skips `lookup` for IP literals; `endpointProblem` has checked those.
 */
export function checkedLookup(allowed: AllowedHosts, resolveAll: ResolveAll = systemResolve): LookupFunction {
  return ((
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (...args: unknown[]) => void,
  ) => {
    const host = pushHost(hostname);
    if (host === null) {
      callback(Object.assign(new Error(`not a host name: ${hostname}`), { code: 'ENOTFOUND' }));
      return;
    }
    resolveAll(host).then(
      (found) => {
        const wanted =
          options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        if (!allowed.has(host) && (found.length === 0 || !found.every((a) => isPublicAddress(a.address)))) {
          callback(
            new PushEndpointRefused(
              host,
              found.map((a) => a.address),
            ),
          );
        } else if (wanted.length === 0) {
          callback(
            Object.assign(new Error(`no address of family ${options.family} for ${host}`), { code: 'ENOTFOUND' }),
          );
        } else if (options.all) {
          callback(null, wanted);
        } else {
          callback(null, wanted[0].address, wanted[0].family);
        }
      },
      (err) => callback(err),
    );
  }) as LookupFunction;
}

/** The HTTPS agent every push goes through: pooled connections, the checked lookup, extra CAs if any. */
export function pushAgent(opts: { allowed: AllowedHosts; ca?: string[]; resolveAll?: ResolveAll }): Agent {
  return new Agent({
    keepAlive: true,
    maxSockets: 32,
    lookup: checkedLookup(opts.allowed, opts.resolveAll),
    ...(opts.ca ? { ca: opts.ca } : {}),
  });
}
