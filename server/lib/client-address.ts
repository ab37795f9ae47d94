// How a client address is shown to the player in the security section: coarse enough to say
// "that was my home network", never the exact address (IPv4 /24, IPv6 /48).
import { isIPv4, isIPv6 } from 'node:net';

export function coarseAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1] : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.x`;
  if (!isIPv6(ip)) return 'unknown';
  const groups = expandIPv6(ip);
  return `${groups
    .slice(0, 3)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/48`;
}

/** The eight groups of an IPv6 address, `::` expanded (no embedded IPv4 here: mapped ones are handled above). */
function expandIPv6(ip: string): string[] {
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const middle = ip.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...middle, ...right];
}
