// A local stand-in of YooKassa's v3 payments API (POST /v3/payments, GET /v3/payments/{id}) for the
// sbp tests: it checks the shop's Basic credentials and the Idempotence-Key as YooKassa does,
// records the payments, and lets a test set a payment's status, amount or metadata, or take the
// API down, to see what the server believes.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInPayment {
  id: string;
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled';
  paid: boolean;
  amount: { value: string; currency: string };
  refunded_amount?: { value: string; currency: string };
  confirmation: { type: 'redirect'; return_url: string; confirmation_url: string };
  capture: boolean;
  description?: string;
  metadata: Record<string, string>;
  cancellation_details?: { party: string; reason: string };
  created_at: string;
  test: boolean;
}

export interface YookassaStandIn {
  /** YOOKASSA_API_BASE for the server. */
  apiBase: string;
  shopId: string;
  secretKey: string;
  /** Settings for createTestApp. */
  env: Record<string, string>;
  payments: Map<string, StandInPayment>;
  /** The payment created for an order (by its metadata). */
  paymentOf(orderId: number): StandInPayment;
  set(id: string, patch: Partial<StandInPayment>): void;
  /** Requests seen, e.g. "GET /v3/payments/…" (tests count the read-backs). */
  requests: string[];
  /** While true every call answers 503. */
  down: boolean;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startYookassaStandIn(): Promise<YookassaStandIn> {
  const shopId = '123456';
  const secretKey = `test_${randomUUID()}`;
  const expectedAuth = `Basic ${Buffer.from(`${shopId}:${secretKey}`).toString('base64')}`;
  const payments = new Map<string, StandInPayment>();
  const byKey = new Map<string, string>();
  const requests: string[] = [];

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    requests.push(`${req.method} ${req.url}`);
    if (standIn.down)
      return send(res, 503, { type: 'error', code: 'internal_server_error', description: 'down for the test' });
    if (req.headers.authorization !== expectedAuth)
      return send(res, 401, { type: 'error', code: 'invalid_credentials', description: 'bad shop id or key' });
    if (req.method === 'POST' && req.url === '/v3/payments') {
      const key = req.headers['idempotence-key'];
      if (typeof key !== 'string' || key === '' || key.length > 64)
        return send(res, 400, { type: 'error', code: 'invalid_request', parameter: 'Idempotence-Key' });
      const known = byKey.get(key);
      if (known) return send(res, 200, payments.get(known));
      let input: {
        amount?: { value?: string; currency?: string };
        confirmation?: { type?: string; return_url?: string };
        capture?: boolean;
        description?: string;
        metadata?: Record<string, string>;
      };
      try {
        input = JSON.parse(body);
      } catch {
        return send(res, 400, { type: 'error', code: 'invalid_request', description: 'not JSON' });
      }
      if (
        !input.amount?.value ||
        !/^\d+\.\d{2}$/.test(input.amount.value) ||
        !input.amount.currency ||
        input.confirmation?.type !== 'redirect' ||
        !input.confirmation.return_url
      ) {
        return send(res, 400, {
          type: 'error',
          code: 'invalid_request',
          description: 'amount and a redirect confirmation are required',
        });
      }
      const id = randomUUID();
      const payment: StandInPayment = {
        id,
        status: 'pending',
        paid: false,
        amount: { value: input.amount.value, currency: input.amount.currency },
        confirmation: {
          type: 'redirect',
          return_url: input.confirmation.return_url,
          confirmation_url: `https://yoomoney.test/checkout/payments/v2/contract?orderId=${id}`,
        },
        capture: input.capture === true,
        description: input.description,
        metadata: input.metadata ?? {},
        created_at: new Date().toISOString(),
        test: true,
      };
      payments.set(id, payment);
      byKey.set(key, id);
      return send(res, 200, payment);
    }
    const m = /^\/v3\/payments\/([^/?]+)$/.exec(req.url ?? '');
    if (req.method === 'GET' && m) {
      const payment = payments.get(decodeURIComponent(m[1]));
      return payment
        ? send(res, 200, payment)
        : send(res, 404, { type: 'error', code: 'not_found', description: 'no such payment' });
    }
    send(res, 404, { type: 'error', code: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiBase = `http://127.0.0.1:${port}/v3`;

  const standIn: YookassaStandIn = {
    apiBase,
    shopId,
    secretKey,
    env: {
      YOOKASSA_SHOP_ID: shopId,
      YOOKASSA_SECRET_KEY: secretKey,
      YOOKASSA_API_BASE: apiBase,
      YOOKASSA_RUB_PER_USD: '90',
    },
    payments,
    paymentOf(orderId) {
      const p = [...payments.values()].find((x) => x.metadata.order_id === String(orderId));
      if (!p) throw new Error(`no stand-in payment for order ${orderId}`);
      return p;
    },
    set(id, patch) {
      const p = payments.get(id);
      if (!p) throw new Error(`no stand-in payment ${id}`);
      Object.assign(p, patch);
    },
    requests,
    down: false,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return standIn;
}
