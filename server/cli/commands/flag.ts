// `flag <user> ico|language on|off`: the per-player switches for the ICO page and the language menu.
import { CliError, type Command, expectArgs, resolveUser, userLabel } from '../context';

const FLAGS = ['ico', 'language'] as const;
const STATES = { on: 1, off: 0 } as const;

export const flagCommand: Command = {
  name: 'flag',
  usage: ['flag <user> ico|language on|off'],
  summary: "turn a player's ico (token-sale page) or language (language switcher) flag on or off",
  async run(ctx, args) {
    expectArgs(this, args, 3);
    const [who, flag, state] = args;
    if (!(FLAGS as readonly string[]).includes(flag)) throw new CliError(`unknown flag "${flag}": use ico or language`);
    if (!(state in STATES)) throw new CliError(`unknown state "${state}": use on or off`);
    const db = await ctx.db();
    const user = await resolveUser(db, who);
    const column = flag as (typeof FLAGS)[number];
    const value = STATES[state as keyof typeof STATES];
    const was = Number(user[column]) ? 'on' : 'off';
    await db
      .updateTable('users')
      .set({ [column]: value })
      .where('id', '=', user.id)
      .execute();
    ctx.out(`${column} flag of ${userLabel(user)}: ${was} → ${state}`);
  },
};
