// Known devices (decisions §13, OWASP's "device cookies"): every sign-in answers a device string
// for that account, which the browser keeps and sends back in X-Device with later sign-ins. It is
// `<user id>.<random>.<HMAC of both>`: nothing is stored, and only this server can make one. A sign-in
// that brings a valid string of the account counts against that device's own attempt limit and
// waits in the hash queue's lane for known devices, so a flood of failures from elsewhere (which
// locks the address and fills the queue) neither locks out nor queues out the owner's own browser.
// The HMAC also covers the account's device generation (`users.device_epoch`): setting a password
// or undoing an e-mail change raises it (forgetDevices), so whoever once signed in, with a password
// since changed, keeps neither the lane nor the silence of a known device.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { DEVICE_HEADER, DEVICE_HEADER_MAX } from '@shared/auth-headers';
import type { Tx } from '../db/schema';
import type { User } from './users';

/** What of the account a device string is made for. */
export type DeviceOwner = Pick<User, 'id' | 'device_epoch'>;

export interface KnownDevices {
  /** A new device string for this account, in its current generation. */
  issue(user: DeviceOwner): string;
  /** The string in the request's X-Device that belongs to `user` now (and its device id), else null. */
  of(request: FastifyRequest, user: DeviceOwner): { id: string; value: string } | null;
}

/** Every device string of the account issued so far is unknown from now on; returns the new generation. */
export async function forgetDevices(trx: Tx, userId: number): Promise<DeviceOwner> {
  return trx
    .updateTable('users')
    .set((eb) => ({ device_epoch: eb('device_epoch', '+', 1) }))
    .where('id', '=', userId)
    .returning(['id', 'device_epoch'])
    .executeTakeFirstOrThrow();
}

export function createKnownDevices(secret: string): KnownDevices {
  // Generation 0 signs what strings signed before generations existed, so those stay valid.
  const mac = (user: string, id: string, epoch: number) =>
    createHmac('sha256', `known-device:${secret}`)
      .update(epoch === 0 ? `${user}.${id}` : `${user}.${id}.${epoch}`)
      .digest('base64url')
      .slice(0, 32);
  const verify = (value: string, epoch: number): { userId: number; id: string } | null => {
    const [user, id, given, extra] = value.trim().split('.');
    if (
      extra !== undefined ||
      !/^[1-9][0-9]{0,15}$/.test(user ?? '') ||
      !/^[A-Za-z0-9_-]{22}$/.test(id ?? '') ||
      !given
    )
      return null;
    const expected = Buffer.from(mac(user!, id!, epoch));
    const actual = Buffer.from(given);
    return actual.length === expected.length && timingSafeEqual(actual, expected)
      ? { userId: Number(user), id: id! }
      : null;
  };
  return {
    issue(user) {
      const id = randomBytes(16).toString('base64url');
      return `${user.id}.${id}.${mac(String(user.id), id, Number(user.device_epoch))}`;
    },
    of(request, user) {
      const header = request.headers[DEVICE_HEADER];
      if (typeof header !== 'string' || header.length > 100 * DEVICE_HEADER_MAX) return null;
      for (const value of header.split(',').slice(0, DEVICE_HEADER_MAX)) {
        const device = verify(value, Number(user.device_epoch));
        if (device?.userId === user.id) return { id: device.id, value: value.trim() };
      }
      return null;
    },
  };
}
