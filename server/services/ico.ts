// The token-sale (ICO) figures the /ico page shows (decisions §9). Buying is not part of the
// product yet, so these are operator-set numbers from the environment, read once at start:
//   ICO_STAGE         stage number                       default 1
//   ICO_PRICE_USD     price of one PXT in USD            default 0.05
//   ICO_TOKENS_SOLD   PXT sold so far                    default 0
//   ICO_TOKENS_TOTAL  PXT offered in the sale            default 100000000
//   ICO_STARTS_AT     ISO 8601 start, unset = not announced
//   ICO_ENDS_AT       ISO 8601 end, unset = not announced
import { isoTimeOrNull } from '../lib/iso-time';

export interface IcoSettings {
  stage: number;
  priceUsd: number;
  tokensSold: number;
  tokensTotal: number;
  startsAt: number | null;
  endsAt: number | null;
}

export const ICO_DEFAULTS: IcoSettings = {
  stage: 1,
  priceUsd: 0.05,
  tokensSold: 0,
  tokensTotal: 100_000_000,
  startsAt: null,
  endsAt: null,
};

type Env = Record<string, string | undefined>;

function numberFrom(env: Env, name: string, fallback: number, check: (n: number) => boolean, rule: string): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n)) throw new Error(`${name} must be ${rule}, got "${raw}"`);
  return n;
}

function timeFrom(env: Env, name: string): number | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) throw new Error(`${name} must be an ISO 8601 date, got "${raw}"`);
  return ms;
}

/** Reads and checks the ICO settings; a wrong value stops the start with a clear message. */
export function loadIcoSettings(env: Env): IcoSettings {
  const settings: IcoSettings = {
    stage: numberFrom(env, 'ICO_STAGE', ICO_DEFAULTS.stage, (n) => Number.isInteger(n) && n >= 1, 'an integer ≥ 1'),
    priceUsd: numberFrom(env, 'ICO_PRICE_USD', ICO_DEFAULTS.priceUsd, (n) => n > 0, 'a positive number'),
    tokensSold: numberFrom(env, 'ICO_TOKENS_SOLD', ICO_DEFAULTS.tokensSold, (n) => n >= 0, 'a number ≥ 0'),
    tokensTotal: numberFrom(env, 'ICO_TOKENS_TOTAL', ICO_DEFAULTS.tokensTotal, (n) => n > 0, 'a positive number'),
    startsAt: timeFrom(env, 'ICO_STARTS_AT'),
    endsAt: timeFrom(env, 'ICO_ENDS_AT'),
  };
  if (settings.tokensSold > settings.tokensTotal) throw new Error('ICO_TOKENS_SOLD must not exceed ICO_TOKENS_TOTAL');
  if (settings.startsAt !== null && settings.endsAt !== null && settings.endsAt <= settings.startsAt) {
    throw new Error('ICO_ENDS_AT must be after ICO_STARTS_AT');
  }
  return settings;
}

/** What GET /ico/ answers. `buying_open` stays false until a sale is built (decisions §9). */
export function icoStatus(s: IcoSettings) {
  return {
    stage: s.stage,
    price_usd: s.priceUsd,
    tokens_sold: s.tokensSold,
    tokens_total: s.tokensTotal,
    starts_at: isoTimeOrNull(s.startsAt),
    ends_at: isoTimeOrNull(s.endsAt),
    buying_open: false as const,
  };
}
