// A local stand-in of the part of Stripe's API the `stripe` package calls for Checkout (decisions §8):
// POST /v1/checkout/sessions (form-encoded, Idempotency-Key honoured), GET /v1/checkout/sessions/:id
// (with `expand[]=payment_intent` / `payment_intent.latest_charge`) and GET /v1/checkout/sessions
// ?payment_intent=…, answering Stripe's JSON shapes and error envelope. The tests play the
// customer and the dashboard through `pay`, `refund` and `expire`, and build the webhook events Stripe
// would send, signed with the package's own `generateTestHeaderString`.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

export interface StandInSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  amount_subtotal: number;
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  created: number;
  livemode: false;
  url: string | null;
}

export interface StandInCharge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  currency: string;
  paid: boolean;
  refunded: boolean;
  captured: boolean;
  status: 'succeeded';
  payment_intent: string;
  metadata: Record<string, string>;
  created: number;
  livemode: false;
}

interface Intent {
  id: string;
  object: 'payment_intent';
  amount: number;
  currency: string;
  status: 'succeeded';
  latest_charge: string;
  metadata: Record<string, string>;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every request the package made, with its parsed form or query. */
  requests: { method: string; path: string; params: Record<string, unknown>; idempotencyKey: string | null }[];
  session(id: string): StandInSession;
  /** The customer pays on Stripe's page: the session completes with a succeeded charge. */
  pay(sessionId: string): StandInSession;
  /** The operator refunds the charge in the dashboard (all of it unless `amount` is given). */
  refund(sessionId: string, amount?: number): StandInCharge;
  expire(sessionId: string): StandInSession;
  /** A webhook event as Stripe delivers it. */
  event(type: string, object: unknown): string;
  /** The Stripe-Signature header for a body, now or at `timestamp` (seconds), with this endpoint's secret unless told. */
  sign(body: string, opts?: { secret?: string; timestamp?: number }): string;
  close(): Promise<void>;
}

const rid = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** `a[b][0][c]=v` → { a: { b: [ { c: 'v' } ] } }, as Stripe reads its form bodies. */
export function parseStripeForm(text: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> = root;
    path.forEach((segment, i) => {
      if (i === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Record<string, unknown>;
    });
  }
  const arrays = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    const entries = Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, arrays(x)] as const);
    return entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k))
      ? entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, x]) => x)
      : Object.fromEntries(entries);
  };
  return arrays(root) as Record<string, unknown>;
}

function stripeError(res: ServerResponse, status: number, message: string, param?: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': rid('req') });
  res.end(JSON.stringify({ error: { type: 'invalid_request_error', message, ...(param ? { param } : {}) } }));
}

function send(res: ServerResponse, body: unknown) {
  res.writeHead(200, { 'content-type': 'application/json', 'request-id': rid('req') });
  res.end(JSON.stringify(body));
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const sessions = new Map<string, StandInSession>();
  const intents = new Map<string, Intent>();
  const charges = new Map<string, StandInCharge>();
  const byIdempotencyKey = new Map<string, string>();
  /** payment_intent_data.metadata per session, for the intent `pay` creates. */
  const intentMetadata = new Map<string, Record<string, string>>();
  const requests: StripeStandIn['requests'] = [];
  const now = () => Math.floor(Date.now() / 1000);

  function expanded(session: StandInSession, expand: string[]): unknown {
    if (!session.payment_intent || !expand.some((e) => e === 'payment_intent' || e.startsWith('payment_intent.')))
      return session;
    const intent = intents.get(session.payment_intent)!;
    const charge = expand.includes('payment_intent.latest_charge')
      ? charges.get(intent.latest_charge)!
      : intent.latest_charge;
    return { ...session, payment_intent: { ...intent, latest_charge: charge } };
  }

  function createSession(form: Record<string, unknown>, res: ServerResponse) {
    const items = form.line_items as
      | {
          quantity?: string;
          price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } };
        }[]
      | undefined;
    if (form.mode !== 'payment') return stripeError(res, 400, 'Only payment mode is supported here', 'mode');
    if (!Array.isArray(items) || items.length === 0)
      return stripeError(res, 400, 'line_items is required', 'line_items');
    if (typeof form.success_url !== 'string') return stripeError(res, 400, 'success_url is required', 'success_url');
    let total = 0;
    let currency = '';
    for (const item of items) {
      const quantity = Number(item.quantity);
      const unit = Number(item.price_data?.unit_amount);
      if (
        !Number.isInteger(quantity) ||
        quantity < 1 ||
        !Number.isInteger(unit) ||
        unit < 1 ||
        !item.price_data?.product_data?.name
      ) {
        return stripeError(res, 400, 'Invalid line item', 'line_items');
      }
      total += quantity * unit;
      currency = item.price_data.currency ?? '';
    }
    const expiresAt = form.expires_at === undefined ? now() + 24 * 3600 : Number(form.expires_at);
    if (expiresAt < now() + 30 * 60 || expiresAt > now() + 24 * 3600) {
      return stripeError(
        res,
        400,
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    }
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const session: StandInSession = {
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_subtotal: total,
      amount_total: total,
      currency,
      client_reference_id: typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      payment_intent: null,
      success_url: form.success_url,
      cancel_url: String(form.cancel_url ?? ''),
      expires_at: expiresAt,
      created: now(),
      livemode: false,
      url: `https://checkout.stripe.test/c/pay/${id}`,
    };
    sessions.set(id, session);
    intentMetadata.set(
      id,
      (form.payment_intent_data as { metadata?: Record<string, string> } | undefined)?.metadata ?? {},
    );
    return session;
  }

  const publicSession = (s: StandInSession): StandInSession => ({ ...s, metadata: { ...s.metadata } });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const params =
      req.method === 'GET'
        ? parseStripeForm(url.searchParams.toString())
        : parseStripeForm(Buffer.concat(chunks).toString('utf8'));
    const idempotencyKey = (req.headers['idempotency-key'] as string | undefined) ?? null;
    requests.push({ method: req.method ?? '', path: url.pathname, params, idempotencyKey });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      res.writeHead(401, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } }));
    }
    const expand = Array.isArray(params.expand) ? (params.expand as string[]) : [];
    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const known = idempotencyKey ? byIdempotencyKey.get(idempotencyKey) : undefined;
      if (known) return send(res, publicSession(sessions.get(known)!));
      const session = createSession(params, res);
      if (!session) return;
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, session.id);
      return send(res, publicSession(session));
    }
    if (req.method === 'GET' && url.pathname === '/v1/checkout/sessions') {
      const wanted = typeof params.payment_intent === 'string' ? params.payment_intent : null;
      const data = [...sessions.values()]
        .filter((s) => wanted === null || s.payment_intent === wanted)
        .map((s) => expanded(publicSession(s), expand));
      return send(res, { object: 'list', data, has_more: false, url: '/v1/checkout/sessions' });
    }
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const session = sessions.get(decodeURIComponent(one[1]));
      if (!session) return stripeError(res, 404, `No such checkout.session: '${one[1]}'`, 'session');
      return send(res, expanded(publicSession(session), expand));
    }
    return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${url.pathname}).`);
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => stripeError(res, 500, String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const get = (id: string) => {
    const s = sessions.get(id);
    if (!s) throw new Error(`stand-in: no session ${id}`);
    return s;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    requests,
    session: (id) => publicSession(get(id)),
    pay(id) {
      const s = get(id);
      const chargeId = rid('ch');
      const intentId = rid('pi');
      const metadata = intentMetadata.get(id) ?? {};
      intents.set(intentId, {
        id: intentId,
        object: 'payment_intent',
        amount: s.amount_total,
        currency: s.currency,
        status: 'succeeded',
        latest_charge: chargeId,
        metadata,
      });
      charges.set(chargeId, {
        id: chargeId,
        object: 'charge',
        amount: s.amount_total,
        amount_captured: s.amount_total,
        amount_refunded: 0,
        currency: s.currency,
        paid: true,
        refunded: false,
        captured: true,
        status: 'succeeded',
        payment_intent: intentId,
        metadata,
        created: now(),
        livemode: false,
      });
      Object.assign(s, { status: 'complete', payment_status: 'paid', payment_intent: intentId, url: null });
      return publicSession(s);
    },
    refund(id, amount) {
      const s = get(id);
      if (!s.payment_intent) throw new Error(`stand-in: session ${id} is not paid`);
      const charge = charges.get(intents.get(s.payment_intent)!.latest_charge)!;
      charge.amount_refunded = Math.min(charge.amount, charge.amount_refunded + (amount ?? charge.amount));
      charge.refunded = charge.amount_refunded === charge.amount;
      return { ...charge };
    },
    expire(id) {
      return publicSession(Object.assign(get(id), { status: 'expired', url: null }));
    },
    event(type, object) {
      return JSON.stringify(
        {
          id: rid('evt'),
          object: 'event',
          api_version: Stripe.API_VERSION,
          created: now(),
          data: { object },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
        },
        null,
        2,
      );
    },
    sign(body, opts = {}) {
      return Stripe.webhooks.generateTestHeaderString({
        payload: body,
        secret: opts.secret ?? webhookSecret,
        timestamp: opts.timestamp,
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
