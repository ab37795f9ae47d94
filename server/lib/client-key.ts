// The one key a client address is counted under, for every per-client limit: sign-ups, sign-in
// attempts, mails, hash-queue shares and request rates (decisions §13). An IPv6 subscriber gets a
// whole /64 (often more) and picks any address in it at will, so counting single IPv6 addresses
// gave one subscriber as many shares as they cared to take; a /64 is counted as one client. An
// IPv4-mapped address (::ffff:a.b.c.d, from a dual-stack socket) is the IPv4 client it carries.
import { normalizeIP } from '@fastify/rate-limit';

/** IPv4 as is; IPv6 as the first address of its /64; IPv4-mapped IPv6 as the IPv4 address. */
export const clientKey = (ip: string): string => normalizeIP(ip, 64);
