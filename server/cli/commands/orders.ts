// `orders [user]`: the newest Gems orders (decisions §11), or one player's, with status and the
// provider's reference (YooKassa payment id, Stripe session, transaction hash) for support.
import { type Command, expectArgs, resolveUser, userLabel } from '../context';
import { isoTime } from '../../lib/iso-time';
import { table } from '../format';

const LIMIT = 100;
const minute = (ms: number | null) => (ms === null ? '' : isoTime(ms).slice(0, 16).replace('T', ' '));

export const ordersCommand: Command = {
  name: 'orders',
  usage: ['orders [user]'],
  summary: `list Gems orders, newest first (at most ${LIMIT}), or one player's, with status and provider reference`,
  async run(ctx, args) {
    expectArgs(this, args, 0, 1);
    const db = await ctx.db();
    const player = args[0] !== undefined ? await resolveUser(db, args[0]) : null;
    const base = db
      .selectFrom('payment_orders as o')
      .innerJoin('users as u', 'u.id', 'o.user_id')
      .$if(player !== null, (q) => q.where('o.user_id', '=', player!.id));
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const orders = await base
      .select([
        'o.id',
        'o.status',
        'o.method',
        'o.provider',
        'o.external_id',
        'o.tx_hash',
        'o.quantity',
        'o.gems',
        'o.price_cents',
        'o.charge_amount',
        'o.charge_currency',
        'o.created_at',
        'o.paid_at',
        'o.failure',
        'u.username',
        'u.email',
        'u.wallet_address',
        'u.id as user_id',
      ])
      .orderBy('o.id', 'desc')
      .limit(LIMIT)
      .execute();
    if (orders.length === 0) {
      ctx.out(player ? `no orders of ${userLabel(player)}` : 'no orders yet');
      return;
    }
    const rows = orders.map((o) => [
      String(o.id),
      o.username ?? o.email ?? o.wallet_address ?? `#${o.user_id}`,
      o.status + (o.failure ? ` (${o.failure})` : ''),
      o.method,
      o.provider,
      o.external_id ?? o.tx_hash ?? '',
      `${o.gems} (${o.quantity}×)`,
      (Number(o.price_cents) / 100).toFixed(2),
      o.charge_amount !== null ? `${o.charge_amount} ${o.charge_currency}` : '',
      minute(o.created_at),
      minute(o.paid_at),
    ]);
    for (const line of table(
      [
        'id',
        'player',
        'status',
        'method',
        'provider',
        'reference',
        'gems',
        'usd',
        'charged',
        'created (UTC)',
        'paid (UTC)',
      ],
      rows,
    ))
      ctx.out(line);
    const count = Number(total);
    ctx.out(
      count > orders.length ? `${orders.length} of ${count} orders shown` : `${count} order${count === 1 ? '' : 's'}`,
    );
  },
};
