// Known devices (decisions §13, OWASP's "device cookies"): every sign-in answers a device string
// for that account, which the browser keeps and sends back in X-Device with later sign-ins. It is
// `<user id>.<random>.<HMAC of both>`: nothing is stored, and only this server can make one. A sign-in
// that brings a valid string of the account counts against that device's own attempt limit and
// waits in the hash queue's lane for known devices, so a flood of failures from elsewhere (which
// locks the address and fills the queue) neither locks out nor queues out the owner's own browser.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DEVICE_HEADER, DEVICE_HEADER_MAX } from '@shared/auth-headers';

export interface KnownDevices {
  /** A new device string for this account. */
  issue(userId: number): string;
  /** The string in the request's X-Device that belongs to `userId` (and its device id), else null. */
  of(request: FastifyRequest, userId: number): { id: string; value: string } | null;
}

export function createKnownDevices(secret: string): KnownDevices {
  const mac = (body: string) =>
    createHmac('sha256', `known-device:${secret}`).update(body).digest('base64url').slice(0, 32);
  const verify = (value: string): { userId: number; id: string } | null => {
    const [user, id, given, extra] = value.trim().split('.');
    if (
      extra !== undefined ||
      !/^[1-9][0-9]{0,15}$/.test(user ?? '') ||
      !/^[A-Za-z0-9_-]{22}$/.test(id ?? '') ||
      !given
    )
      return null;
    const expected = Buffer.from(mac(`${user}.${id}`));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected) ? { userId: Number(user), id } : null;
  };
  return {
    issue(userId) {
      const id = randomBytes(16).toString('base64url');
      return `${userId}.${id}.${mac(`${userId}.${id}`)}`;
    },
    of(request, userId) {
      const header = request.headers[DEVICE_HEADER];
      if (typeof header !== 'string' || header.length > 100 * DEVICE_HEADER_MAX) return null;
      for (const value of header.split(',').slice(0, DEVICE_HEADER_MAX)) {
        const device = verify(value);
        if (device?.userId === userId) return { id: device.id, value: value.trim() };
      }
      return null;
    },
  };
}
