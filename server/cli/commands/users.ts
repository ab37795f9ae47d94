// `users [text]`: the newest players, or those whose username, e-mail or wallet contains the text.
import { sql } from 'kysely';
import { type Command, expectArgs } from '../context';
import { isoTime } from '../../lib/iso-time';
import { formatToken, table } from '../format';

const LIMIT = 100;

/** A LIKE pattern that matches `text` literally anywhere (with `\` as the escape character). */
const containsPattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const usersCommand: Command = {
  name: 'users',
  usage: ['users [text]'],
  summary: `list players, newest first (at most ${LIMIT}), or find them by part of a username, e-mail or wallet`,
  async run(ctx, args) {
    expectArgs(this, args, 0, 1);
    const db = await ctx.db();
    const text = args[0]?.trim() ?? '';
    const pattern = containsPattern(text);
    const like = (column: 'username' | 'email' | 'wallet_address') =>
      sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
    const base = db
      .selectFrom('users')
      .$if(text !== '', (q) => q.where((eb) => eb.or([like('username'), like('email'), like('wallet_address')])));
    const { total } = await base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const users = await base.selectAll().orderBy('id', 'desc').limit(LIMIT).execute();
    if (users.length === 0) {
      ctx.out(text ? `no player matches "${text}"` : 'no players yet');
      return;
    }
    const rows = users.map((u) => [
      String(u.id),
      u.username ?? '',
      u.email ?? '',
      u.wallet_address ?? '',
      String(u.balance),
      formatToken(Number(u.token)),
      String(u.gems),
      Number(u.ico) ? 'on' : 'off',
      Number(u.language) ? 'on' : 'off',
      isoTime(u.created_at).slice(0, 16).replace('T', ' '),
    ]);
    for (const line of table(
      ['id', 'username', 'email', 'wallet', 'coins', 'pxt', 'gems', 'ico', 'language', 'created (UTC)'],
      rows,
    ))
      ctx.out(line);
    const count = Number(total);
    ctx.out(
      count > users.length ? `${users.length} of ${count} players shown` : `${count} player${count === 1 ? '' : 's'}`,
    );
  },
};
