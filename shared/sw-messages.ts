// The messages the page and the service worker exchange (postMessage). Both sides import these
// names, so a rename cannot leave one side listening for a message the other no longer sends. It
// lives in shared/ because the worker may import nothing else from outside sw/ (eslint.config.js).

/** Page → worker: the player chose Reload on the update prompt; the waiting worker takes over. */
export const SKIP_WAITING = 'SKIP_WAITING';
/** Worker → page: a Background Sync 'outbox-replay' fired; replay the outbox, answer on the port. */
export const OUTBOX_REPLAY = 'OUTBOX_REPLAY';

/** Worker → page: a claim reminder arrived while this page may be showing the miner; the page
 * answers `ReminderReply` on the port (shown: it put up its own line, so no system notification). */
export const PUSH_REMINDER = 'PUSH_REMINDER';
/** Worker → page: a notification was clicked; go to `path` inside the app (no reload), answer on
 * the port with `{ ok: true }`. */
export const NAVIGATE = 'NAVIGATE';

export interface ReminderReply {
  shown: boolean;
}

/** The Background Sync tag the page registers when a call is queued (decisions §10). */
export const OUTBOX_SYNC_TAG = 'outbox-replay';

export interface OutboxReplayReply {
  /** Outbox calls still waiting after the replay (0 = all sent). */
  pending: number;
}
