// What the request-rate limit tests send and check (plugins/rate-limits.ts, decisions §12).
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';

/** The limits on, whatever the test environment says. */
export const RATE_LIMITS_ON = { RATE_LIMITS: 'on' };

export type Answer = { statusCode: number; headers: Record<string, unknown>; json(): unknown };

/** The 429 every limit answers: the API's error shape and a Retry-After within the minute's window. */
export function expectRateLimited(res: Answer) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ detail: expect.stringMatching(/^Too many requests/), code: 'rate_limited' });
  const after = Number(res.headers['retry-after']);
  expect(Number.isInteger(after)).toBe(true);
  expect(after).toBeGreaterThanOrEqual(1);
  expect(after).toBeLessThanOrEqual(60);
}

/** Sends `count` requests one after another; the answers in order. */
export async function flood(
  app: FastifyInstance,
  count: number,
  request: (i: number) => InjectOptions,
): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < count; i++) out.push(await app.inject(request(i)));
  return out;
}

export const statuses = (answers: Answer[]) => answers.map((a) => a.statusCode);
