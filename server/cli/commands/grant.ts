// `grant <user> coins|gems|pxt <amount>`: the operator gives (or, negative, takes) money. Like every
// balance change it is one ledger row (reason admin_grant), so the books stay balanced.
import { TOKEN_SCALE } from '@shared/constants';
import type { Currency } from '../../db/tables/core';
import { ApiError } from '../../lib/errors';
import { post } from '../../services/ledger';
import { CliError, type Command, expectArgs, resolveUser, userLabel } from '../context';
import { formatToken } from '../format';

const CURRENCIES: Record<string, Currency> = { coins: 'balance', gems: 'gems', pxt: 'token' };

/** The amount in ledger units: whole coins and Gems; PXT with up to 6 decimals, in millionths. */
export function parseAmount(kind: string, raw: string): number {
  const text = raw.trim();
  let units: number;
  if (kind === 'pxt') {
    const m = /^([+-]?)(\d+)(?:\.(\d{1,6}))?$/.exec(text);
    if (!m)
      throw new CliError(`bad amount "${raw}": PXT takes a number with at most 6 decimals, e.g. 12.5 or -0.000001`);
    units = Number(m[2]) * TOKEN_SCALE + Number((m[3] ?? '').padEnd(6, '0'));
    if (m[1] === '-') units = -units;
  } else {
    if (!/^[+-]?\d+$/.test(text))
      throw new CliError(`bad amount "${raw}": ${kind} take a whole number, e.g. 100 or -5`);
    units = Number(text);
  }
  if (!Number.isSafeInteger(units)) throw new CliError(`bad amount "${raw}": too large`);
  if (units === 0) throw new CliError(`bad amount "${raw}": it must not be zero`);
  return units;
}

const show = (currency: Currency, units: number) => (currency === 'token' ? formatToken(units) : String(units));

export const grantCommand: Command = {
  name: 'grant',
  usage: ['grant <user> coins|gems|pxt <amount>'],
  summary: 'give a player coins, Gems or PXT; a negative amount takes (never below zero)',
  async run(ctx, args) {
    expectArgs(this, args, 3);
    const [who, kind, raw] = args;
    const currency = CURRENCIES[kind];
    if (!currency) throw new CliError(`unknown currency "${kind}": use coins, gems or pxt`);
    const amount = parseAmount(kind, raw);
    const db = await ctx.db();
    const user = await resolveUser(db, who);
    let after: number;
    try {
      after = await db.transaction().execute(async (trx) => {
        await post(trx, { userId: user.id, currency, amount, reason: 'admin_grant', ref: 'operator cli' });
        const row = await trx.selectFrom('users').select(currency).where('id', '=', user.id).executeTakeFirstOrThrow();
        return Number(row[currency]);
      });
    } catch (err) {
      if (err instanceof ApiError && (err.code === 'insufficient_funds' || err.code === 'not_enough_gems')) {
        throw new CliError(
          `${userLabel(user)} has only ${show(currency, Number(user[currency]))} ${kind}; cannot take ${show(currency, -amount)}`,
        );
      }
      throw err;
    }
    ctx.out(
      `${amount > 0 ? 'gave' : 'took'} ${show(currency, Math.abs(amount))} ${kind} ${amount > 0 ? 'to' : 'from'} ${userLabel(user)}; ${kind} now ${show(currency, after)}`,
    );
  },
};
