// Web Push subscriptions (migration 005). Times are epoch ms.
import type { Generated } from 'kysely';

export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  /** The push service URL; unique, so a browser's subscription has one owner. */
  endpoint: string;
  /** The browser's P-256 public key and auth secret, base64url without padding. */
  p256dh: string;
  auth: string;
  /** When this player (re)subscribed with this endpoint. */
  created_at: number;
  last_success_at: number | null;
  /** Failed sends since the last success (404/410 remove the row at once instead). */
  failures: Generated<number>;
}

export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
}
