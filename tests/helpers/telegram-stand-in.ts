// A local stand-in of the Telegram Bot API (https://core.telegram.org/bots/api): the real HTTP
// protocol, `POST /bot<token>/<method>` with a JSON body, answers `{"ok": true, "result": …}` or
// `{"ok": false, "error_code", "description", "parameters"?}`. It records every call, keeps
// channel members for getChatMember, and lets a test answer 429 with `retry_after`, 403 for a
// player who blocked the bot, hang (timeouts) or go down.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { testBotToken } from './telegram-signing';

export interface BotApiCall {
  method: string;
  body: Record<string, unknown>;
  at: number;
}

type MemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

export interface TelegramStandIn {
  /** TELEGRAM_API_BASE for the server. */
  apiBase: string;
  botToken: string;
  botUsername: string;
  webhookSecret: string;
  /** Settings for createTestApp / a server process (channels included). */
  env: Record<string, string>;
  calls: BotApiCall[];
  callsOf(method: string): BotApiCall[];
  /** Channel (`@name` or id) → Telegram user id → status (`restricted` counts as in with isMember). */
  setMember(channel: string, userId: number, status: MemberStatus, isMember?: boolean): void;
  /** getChatMember of this user in `channel` answers 400 with `description` (Telegram's words for users it cannot show). */
  setMemberError(channel: string, userId: number, description: string): void;
  /** Chats (user ids) that blocked the bot: sendMessage answers 403. */
  blocked: Set<number>;
  /** The next `count` calls of `method` answer 429 with this retry_after (seconds). */
  tooManyRequests(method: string, retryAfter: number, count?: number): void;
  /** While true every call is held without an answer (the server's timeout must end it). */
  hang: boolean;
  /** While true every call answers 502, as Telegram's front does when the Bot API is down. */
  down: boolean;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const fail = (res: ServerResponse, code: number, description: string, parameters?: object) =>
  send(res, code, { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) });

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  const type = req.headers['content-type'] ?? '';
  if (type.includes('application/json')) return JSON.parse(text) as Record<string, unknown>;
  return Object.fromEntries(new URLSearchParams(text));
}

export async function startTelegramStandIn(
  opts: { channels?: { ru?: string; en?: string } } = {},
): Promise<TelegramStandIn> {
  const botToken = testBotToken();
  const botId = Number(botToken.split(':')[0]);
  const botUsername = 'pxt_test_bot';
  const members = new Map<string, Map<number, { status: MemberStatus; isMember: boolean }>>();
  const memberErrors = new Map<string, string>();
  const throttled = new Map<string, { retryAfter: number; count: number }>();
  const held: ServerResponse[] = [];
  let messageId = 0;

  const server = createServer(async (req, res) => {
    let body: Record<string, unknown>;
    try {
      body = await readBody(req);
    } catch {
      return fail(res, 400, 'Bad Request: can not parse JSON object');
    }
    if (standIn.down) return send(res, 502, { ok: false, error_code: 502, description: 'Bad Gateway' });
    if (standIn.hang) return void held.push(res);
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(req.url ?? '');
    if (!match || (req.method !== 'POST' && req.method !== 'GET')) return fail(res, 404, 'Not Found');
    const [, token, method] = match as unknown as [string, string, string];
    if (token !== botToken) return fail(res, 401, 'Unauthorized');
    standIn.calls.push({ method, body, at: Date.now() });
    const limit = throttled.get(method);
    if (limit && limit.count > 0) {
      limit.count--;
      return fail(res, 429, `Too Many Requests: retry after ${limit.retryAfter}`, { retry_after: limit.retryAfter });
    }
    switch (method) {
      case 'getMe':
        return send(res, 200, {
          ok: true,
          result: { id: botId, is_bot: true, first_name: 'PXT', username: botUsername, can_join_groups: false },
        });
      case 'sendMessage': {
        const chatId = Number(body.chat_id);
        if (standIn.blocked.has(chatId)) return fail(res, 403, 'Forbidden: bot was blocked by the user');
        if (typeof body.text !== 'string' || body.text === '')
          return fail(res, 400, 'Bad Request: message text is empty');
        return send(res, 200, {
          ok: true,
          result: {
            message_id: ++messageId,
            date: Math.floor(Date.now() / 1000),
            chat: { id: chatId, type: 'private' },
            text: body.text,
          },
        });
      }
      case 'getChatMember': {
        const chat = String(body.chat_id);
        const userId = Number(body.user_id);
        const inChat = members.get(chat);
        if (!inChat && !Object.values(opts.channels ?? {}).includes(chat))
          return fail(res, 400, 'Bad Request: chat not found');
        const refusal = memberErrors.get(`${chat} ${userId}`);
        if (refusal) return fail(res, 400, refusal);
        const m = inChat?.get(userId) ?? { status: 'left' as const, isMember: false };
        const user = { id: userId, is_bot: false, first_name: 'Player' };
        return send(res, 200, {
          ok: true,
          result:
            m.status === 'restricted' ? { status: m.status, user, is_member: m.isMember } : { status: m.status, user },
        });
      }
      case 'setChatMenuButton': {
        const button = body.menu_button as { type?: unknown; text?: unknown; web_app?: { url?: unknown } } | undefined;
        if (button === undefined) return send(res, 200, { ok: true, result: true });
        if (button.type === 'default' || button.type === 'commands') return send(res, 200, { ok: true, result: true });
        if (button.type !== 'web_app') return fail(res, 400, "Bad Request: can't parse menu button: unsupported type");
        if (typeof button.text !== 'string' || button.text === '')
          return fail(res, 400, "Bad Request: can't parse menu button: text is empty");
        if (typeof button.web_app?.url !== 'string')
          return fail(res, 400, "Bad Request: can't parse menu button: Web App URL is invalid");
        return send(res, 200, { ok: true, result: true });
      }
      case 'setWebhook':
      case 'deleteWebhook':
      case 'setMyCommands':
      case 'answerCallbackQuery':
        return send(res, 200, { ok: true, result: true });
      case 'getWebhookInfo': {
        const last = standIn.callsOf('setWebhook').at(-1);
        return send(res, 200, { ok: true, result: { url: last?.body.url ?? '', pending_update_count: 0 } });
      }
      default:
        return fail(res, 404, 'Not Found: method not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const webhookSecret = `whsec_${botToken.slice(-20).replace(/[^A-Za-z0-9_-]/g, '_')}`;

  const standIn: TelegramStandIn = {
    apiBase: `http://127.0.0.1:${port}`,
    botToken,
    botUsername,
    webhookSecret,
    env: {
      TELEGRAM_BOT_TOKEN: botToken,
      TELEGRAM_BOT_USERNAME: botUsername,
      TELEGRAM_WEBHOOK_SECRET: webhookSecret,
      TELEGRAM_API_BASE: `http://127.0.0.1:${port}`,
      ...(opts.channels?.ru ? { TELEGRAM_CHANNEL_RU: opts.channels.ru } : {}),
      ...(opts.channels?.en ? { TELEGRAM_CHANNEL_EN: opts.channels.en } : {}),
    },
    calls: [],
    callsOf: (method) => standIn.calls.filter((c) => c.method === method),
    setMemberError(channel, userId, description) {
      memberErrors.set(`${channel} ${userId}`, description);
    },
    setMember(channel, userId, status, isMember = status !== 'left' && status !== 'kicked') {
      if (!members.has(channel)) members.set(channel, new Map());
      members.get(channel)!.set(userId, { status, isMember });
    },
    blocked: new Set(),
    tooManyRequests(method, retryAfter, count = 1) {
      throttled.set(method, { retryAfter, count });
    },
    hang: false,
    down: false,
    async close() {
      for (const res of held.splice(0)) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standIn;
}
