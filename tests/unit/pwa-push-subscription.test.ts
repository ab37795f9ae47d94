// Claim reminders from the browser's side, against a fake PushManager and a recording API client:
// what is sent to /push/subscribe/ and /push/unsubscribe/, and what happens on refusal or failure.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { path: string; method?: string; body?: unknown }[] = [];
let failPaths = new Set<string>();
const PUBLIC_KEY = Buffer.from(Uint8Array.from({ length: 65 }, (_, i) => (i === 0 ? 4 : i))).toString('base64url');

vi.mock('@/lib/api-client', () => ({
  api: vi.fn(async (path: string, options: { method?: string; body?: unknown } = {}) => {
    calls.push({ path, method: options.method, body: options.body });
    if (failPaths.has(path)) throw new TypeError('Failed to fetch');
    if (path === 'push/public-key/') return { public_key: PUBLIC_KEY };
    if (path === 'push/subscribe/')
      return { endpoint: (options.body as { endpoint: string }).endpoint, created_at: new Date().toISOString() };
    return { removed: true };
  }),
}));

const { disablePush, enablePush, resyncPush } = await import('@/features/pwa/lib/push-subscription');

class FakeSubscription {
  unsubscribed = false;
  constructor(
    readonly endpoint: string,
    readonly options: { applicationServerKey: ArrayBuffer | null },
  ) {}
  toJSON() {
    return {
      endpoint: this.endpoint,
      expirationTime: null,
      keys: { p256dh: 'B'.padEnd(87, 'A'), auth: 'A'.repeat(22) },
    };
  }
  async unsubscribe() {
    this.unsubscribed = true;
    pushManager.current = null;
    return true;
  }
}

const pushManager = {
  current: null as FakeSubscription | null,
  subscribed: [] as Uint8Array[],
  async getSubscription() {
    return this.current;
  },
  async subscribe(opts: { userVisibleOnly: boolean; applicationServerKey: Uint8Array }) {
    this.subscribed.push(opts.applicationServerKey);
    this.current = new FakeSubscription(`https://push.example/send/${this.subscribed.length}`, {
      applicationServerKey: opts.applicationServerKey.buffer as ArrayBuffer,
    });
    return this.current;
  },
};

let permission: NotificationPermission = 'default';
let answer: NotificationPermission = 'granted';

beforeEach(() => {
  calls.length = 0;
  failPaths = new Set();
  pushManager.current = null;
  pushManager.subscribed = [];
  permission = 'default';
  answer = 'granted';
  vi.stubGlobal('isSecureContext', true);
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', {
    get permission() {
      return permission;
    },
    requestPermission: vi.fn(async () => (permission = answer)),
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('enablePush', () => {
  it("asks permission, subscribes with the server's key and posts the subscription", async () => {
    expect(await enablePush()).toBe('subscribed');
    expect(pushManager.subscribed).toHaveLength(1);
    expect([...pushManager.subscribed[0]]).toEqual([...Buffer.from(PUBLIC_KEY, 'base64url')]);
    expect(calls.map((c) => c.path)).toEqual(['push/public-key/', 'push/subscribe/']);
    expect(calls[1]).toMatchObject({ method: 'POST', body: { endpoint: 'https://push.example/send/1' } });
  });

  it('subscribes nobody when the player refuses or closes the permission prompt', async () => {
    answer = 'denied';
    expect(await enablePush()).toBe('denied');
    answer = 'default';
    permission = 'default';
    expect(await enablePush()).toBe('dismissed');
    expect(pushManager.subscribed).toHaveLength(0);
    expect(calls).toEqual([]);
  });

  it('replaces a subscription made with another server key', async () => {
    const old = new FakeSubscription('https://push.example/old', { applicationServerKey: new Uint8Array(65).buffer });
    pushManager.current = old;
    permission = 'granted';
    expect(await enablePush()).toBe('subscribed');
    expect(old.unsubscribed).toBe(true);
    expect(calls[1].body).toMatchObject({ endpoint: 'https://push.example/send/1' });
  });

  it('keeps a subscription made with the same key', async () => {
    permission = 'granted';
    await enablePush();
    await enablePush();
    expect(pushManager.subscribed).toHaveLength(1);
    expect(calls.filter((c) => c.path === 'push/subscribe/')).toHaveLength(2);
  });

  it('reports unsupported where there is no service worker registration', async () => {
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { getRegistration: async () => undefined },
    });
    expect(await enablePush()).toBe('unsupported');
  });
});

describe('disablePush', () => {
  it('removes the subscription on the server and in the browser', async () => {
    await enablePush();
    const sub = pushManager.current!;
    calls.length = 0;
    await disablePush();
    expect(calls).toEqual([{ path: 'push/unsubscribe/', method: 'POST', body: { endpoint: sub.endpoint } }]);
    expect(sub.unsubscribed).toBe(true);
  });

  it('still ends the browser subscription when the server cannot be reached', async () => {
    await enablePush();
    const sub = pushManager.current!;
    failPaths.add('push/unsubscribe/');
    await disablePush();
    expect(sub.unsubscribed).toBe(true);
  });
});

describe('resyncPush', () => {
  it('re-posts the current subscription only when permission is granted', async () => {
    await enablePush();
    calls.length = 0;
    await resyncPush();
    expect(calls.map((c) => c.path)).toEqual(['push/subscribe/']);
    permission = 'denied';
    calls.length = 0;
    await resyncPush();
    expect(calls).toEqual([]);
  });
});
