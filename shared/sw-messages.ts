// The messages the page and the service worker exchange (postMessage). Both sides import these
// names, so a rename cannot leave one side listening for a message the other no longer sends. It
// lives in shared/ because the worker may import nothing else from outside sw/ (eslint.config.js).

/** Page → worker: the player chose Reload on the update prompt; the waiting worker takes over. */
export const SKIP_WAITING = 'SKIP_WAITING';
/** Worker → page: a Background Sync 'outbox-replay' fired; replay the outbox, answer on the port. */
export const OUTBOX_REPLAY = 'OUTBOX_REPLAY';

/** The Background Sync tag the page registers when a call is queued (decisions §10). */
export const OUTBOX_SYNC_TAG = 'outbox-replay';

export interface OutboxReplayReply {
  /** Outbox calls still waiting after the replay (0 = all sent). */
  pending: number;
}
