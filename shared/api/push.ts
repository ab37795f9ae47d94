// Web Push reminders (decisions §6): the VAPID public key, the browser's PushSubscription and the
// payload the service worker receives when a mining session is ready to claim.
import { z } from 'zod';

/** Longest accepted endpoint URL; real push services use a few hundred characters. */
export const PUSH_ENDPOINT_MAX = 2048;

// A push endpoint is where the server POSTs: an https URL of printable ASCII (so the bytes stay
// within the limit and the unique index), as PushSubscription.endpoint gives it.
const endpointSchema = z
  .string()
  .max(PUSH_ENDPOINT_MAX, `At most ${PUSH_ENDPOINT_MAX} characters`)
  .regex(/^[\x21-\x7e]+$/, 'Must be a URL of printable ASCII characters')
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === '';
    } catch {
      return false;
    }
  }, 'Must be an https URL')
  .meta({
    description: 'Where the push service takes messages (PushSubscription.endpoint): an https URL of a public host.',
    example: 'https://fcm.googleapis.com/fcm/send/example-endpoint',
  });

export const pushPublicKeySchema = z.object({
  /** The VAPID public key (uncompressed P-256 point, base64url): `applicationServerKey` for `pushManager.subscribe`. */
  public_key: z.string(),
});
export type PushPublicKey = z.infer<typeof pushPublicKeySchema>;

/** `PushSubscription.toJSON()` as the browser gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: endpointSchema,
  expirationTime: z.number().int().nonnegative().max(8.64e15).nullable().optional(),
  keys: z.object({
    /** The client's ECDH P-256 public key: 65 bytes, uncompressed (first byte 0x04), base64url. */
    p256dh: z
      .string()
      .regex(/^B[A-Za-z0-9_-]{86}=?$/, 'Must be a base64url P-256 public key (65 bytes)')
      .meta({
        description: 'A point on the P-256 curve, uncompressed, base64url.',
        example: 'BLd5x7V9j1EJYRTC1_H7eJSE-K3_T6tTjDiLz5TBF0LQ7nNNONbhxsgygu3SEZ7epjr2RV6xOOVplxhERIfWGwE',
      }),
    /** The 16-byte authentication secret, base64url. */
    auth: z
      .string()
      .regex(/^[A-Za-z0-9_-]{22}(==)?$/, 'Must be a base64url secret of 16 bytes')
      .meta({ example: 'mBmg5vABI0zyI7rwkLGzmQ' }),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

export const pushSubscribeResponseSchema = z.object({
  endpoint: z.string(),
  created_at: z.string(),
});
export type PushSubscribeResponse = z.infer<typeof pushSubscribeResponseSchema>;

export const pushUnsubscribeRequestSchema = z.object({ endpoint: z.string().min(1).max(PUSH_ENDPOINT_MAX) });
export type PushUnsubscribeRequest = z.infer<typeof pushUnsubscribeRequestSchema>;

export const pushUnsubscribeResponseSchema = z.object({
  /** False when the player had no subscription with that endpoint (already gone, or never theirs). */
  removed: z.boolean(),
});
export type PushUnsubscribeResponse = z.infer<typeof pushUnsubscribeResponseSchema>;

/** What a push carries (JSON, encrypted with aes128gcm). The service worker may show `title`/`body`
 * as they are, or its own text for `type` in the player's language. */
export interface PushPayload {
  type: 'mining_ready';
  title: string;
  body: string;
  /** App path to open when the notification is clicked. */
  url: string;
  /** Notification tag: a newer reminder replaces the older one. */
  tag: string;
  session_id: number;
  /** When the session ended, ISO 8601 UTC. */
  ends_at: string;
}
