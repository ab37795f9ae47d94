// @vitest-environment node
// Claim reminders in the service worker (sw/push.ts) with stand-in windows that speak the real
// protocol (postMessage with a MessagePort, answered on the port): no system notification while a
// focused, visible window shows the player's miner and takes the reminder itself; a click focuses
// an open window and routes it inside the app before opening a new one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deliverReminder, openFromNotification, PAGE_ANSWER_MS, type ClickWindow } from '../../sw/push';
import { takesReminder } from '@/features/pwa/lib/worker-messages';
import { NAVIGATE, PUSH_REMINDER } from '@shared/sw-messages';

const ORIGIN = 'https://pxt.example';
const PUSH = JSON.stringify({
  type: 'mining_ready',
  title: 'Your PXT is ready to claim',
  body: 'Open the app',
  url: '/miner',
  tag: 'mining-ready',
  session_id: 7,
  ends_at: '2026-01-01T00:00:00Z',
});

interface FakeWindow extends ClickWindow {
  received: { type: string; [k: string]: unknown }[];
  focusCalls: number;
  navigated: string[];
}

/** A window that answers the worker's messages with `answer(message)`, or never when it gives undefined. */
function fakeWindow(
  path: string,
  opts: {
    focused?: boolean;
    visible?: boolean;
    controlled?: boolean;
    focusFails?: boolean;
    answer?: (m: { type: string }) => unknown;
  },
): FakeWindow {
  const w: FakeWindow = {
    url: ORIGIN + path,
    focused: opts.focused ?? false,
    visibilityState: opts.visible === false ? 'hidden' : 'visible',
    received: [],
    focusCalls: 0,
    navigated: [],
    postMessage(message, transfer) {
      const m = message as { type: string };
      w.received.push(m);
      const port = transfer[0] as MessagePort;
      const reply = opts.answer?.(m);
      if (reply !== undefined) port.postMessage(reply);
    },
    focus() {
      w.focusCalls += 1;
      return opts.focusFails ? Promise.reject(new Error('InvalidAccessError')) : Promise.resolve(w);
    },
    navigate(url) {
      // WindowClient.navigate() rejects for a window this worker does not control.
      if (opts.controlled === false) return Promise.reject(new TypeError('not controlled'));
      w.navigated.push(url);
      return Promise.resolve(w);
    },
  };
  return w;
}

function pushEnv(windows: FakeWindow[]) {
  const shown: string[] = [];
  return {
    shown,
    env: {
      origin: ORIGIN,
      windows: async () => windows,
      showNotification: async (title: string) => void shown.push(title),
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a push while the app is open', () => {
  it('shows no system notification when a focused, visible window at /miner takes it', async () => {
    const miner = fakeWindow('/miner', { focused: true, answer: () => ({ shown: true }) });
    const { env, shown } = pushEnv([miner]);
    expect(await deliverReminder(PUSH, env)).toBe('page');
    expect(shown).toEqual([]);
    expect(miner.received).toEqual([{ type: PUSH_REMINDER, payload: expect.objectContaining({ session_id: 7 }) }]);
  });

  it('notifies when the miner window is in the background, hidden, or on another page — without asking them', async () => {
    const unfocused = fakeWindow('/miner', { focused: false, answer: () => ({ shown: true }) });
    const hidden = fakeWindow('/miner/', { focused: true, visible: false, answer: () => ({ shown: true }) });
    const tasks = fakeWindow('/tasks', { focused: true, answer: () => ({ shown: true }) });
    const { env, shown } = pushEnv([unfocused, hidden, tasks]);
    expect(await deliverReminder(PUSH, env)).toBe('notification');
    expect(shown).toEqual(['Your PXT is ready to claim']);
    expect([...unfocused.received, ...hidden.received, ...tasks.received]).toEqual([]);
  });

  it('notifies when the page says the session is not its player’s', async () => {
    const other = fakeWindow('/miner', { focused: true, answer: () => ({ shown: false }) });
    const { env, shown } = pushEnv([other]);
    expect(await deliverReminder(PUSH, env)).toBe('notification');
    expect(shown).toHaveLength(1);
  });

  it('notifies when the page does not answer in time (frozen, or an old version)', async () => {
    vi.useFakeTimers();
    const silent = fakeWindow('/miner', { focused: true });
    const { env, shown } = pushEnv([silent]);
    const result = deliverReminder(PUSH, env);
    await vi.advanceTimersByTimeAsync(PAGE_ANSWER_MS - 1);
    expect(shown).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toBe('notification');
    expect(shown).toHaveLength(1);
  });

  it('notifies when no window is open', async () => {
    const { env, shown } = pushEnv([]);
    expect(await deliverReminder(PUSH, env)).toBe('notification');
    expect(shown).toHaveLength(1);
  });
});

describe('the page takes a reminder only on its player’s miner, focused and visible', () => {
  const base = { path: '/miner', visible: true, focused: true, ownSession: true };
  it('decides from the facts', () => {
    expect(takesReminder(base)).toBe(true);
    expect(takesReminder({ ...base, path: '/miner/' })).toBe(true);
    expect(takesReminder({ ...base, path: '/tasks' })).toBe(false);
    expect(takesReminder({ ...base, visible: false })).toBe(false);
    expect(takesReminder({ ...base, focused: false })).toBe(false);
    expect(takesReminder({ ...base, ownSession: false })).toBe(false);
  });
});

describe('a click on a reminder', () => {
  const clickEnv = (windows: FakeWindow[]) => {
    const opened: string[] = [];
    return {
      opened,
      env: { origin: ORIGIN, windows: async () => windows, openWindow: async (p: string) => void opened.push(p) },
    };
  };

  it('focuses a window already on the target and opens nothing', async () => {
    const miner = fakeWindow('/miner', {});
    const { env, opened } = clickEnv([fakeWindow('/blog', { focused: true }), miner]);
    expect(await openFromNotification('/miner', env)).toBe('focused');
    expect(miner.focusCalls).toBe(1);
    expect(opened).toEqual([]);
  });

  it('focuses an open window the worker does not control and routes it inside the app, instead of opening a new one', async () => {
    const blog = fakeWindow('/blog', {
      focused: true,
      controlled: false,
      answer: (m) => (m.type === NAVIGATE ? { ok: true } : undefined),
    });
    const { env, opened } = clickEnv([blog]);
    expect(await openFromNotification('/miner', env)).toBe('navigated');
    expect(blog.focusCalls).toBe(1);
    expect(blog.received).toEqual([{ type: NAVIGATE, path: '/miner' }]);
    expect(opened).toEqual([]);
  });

  it('still moves the window when focusing it is refused', async () => {
    const blog = fakeWindow('/blog', { focusFails: true, answer: () => ({ ok: true }) });
    const { env, opened } = clickEnv([blog]);
    expect(await openFromNotification('/miner', env)).toBe('navigated');
    expect(opened).toEqual([]);
  });

  it('navigates a controlled window whose page does not answer (old version), opening nothing', async () => {
    vi.useFakeTimers();
    const old = fakeWindow('/tasks', { controlled: true });
    const { env, opened } = clickEnv([old]);
    const result = openFromNotification('/miner', env);
    await vi.advanceTimersByTimeAsync(PAGE_ANSWER_MS);
    expect(await result).toBe('navigated');
    expect(old.navigated).toEqual([`${ORIGIN}/miner`]);
    expect(opened).toEqual([]);
  });

  it('opens a new window only when there is none to reuse, or none can be moved', async () => {
    const none = clickEnv([]);
    expect(await openFromNotification('/miner', none.env)).toBe('opened');
    expect(none.opened).toEqual(['/miner']);

    vi.useFakeTimers();
    const stuck = clickEnv([fakeWindow('/tasks', { controlled: false })]);
    const result = openFromNotification('/miner', stuck.env);
    await vi.advanceTimersByTimeAsync(PAGE_ANSWER_MS);
    expect(await result).toBe('opened');
    expect(stuck.opened).toEqual(['/miner']);
  });
});
