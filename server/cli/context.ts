// What every operator command gets: the configuration, the database (opened and migrated on first
// use, so `help` and `blog reload` need none), output, and the errors that end a command with exit
// code 1 and a message instead of a stack trace.
import { sql } from 'kysely';
import type { Config } from '../config';
import { type Database, openDatabase } from '../db/database';
import { migrate } from '../db/migrate';
import type { Db } from '../db/schema';
import { usernameKey } from '@shared/validation';
import type { User } from '../services/users';

/** A mistake of the operator (unknown user, bad amount …): printed as it is, exit code 1. */
export class CliError extends Error {}

export interface CliContext {
  config: Config;
  db(): Promise<Db>;
  out(line?: string): void;
  close(): Promise<void>;
}

export function createContext(config: Config, out: (line: string) => void): CliContext {
  let database: Database | null = null;
  return {
    config,
    async db() {
      if (!database) {
        database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
        await migrate(database);
      }
      return database.db;
    },
    out: (line = '') => out(line),
    async close() {
      await database?.close();
      database = null;
    },
  };
}

/** Finds the one player a `<user>` argument names: a username, an e-mail or a wallet address (any case). */
export async function resolveUser(db: Db, who: string): Promise<User> {
  const key = who.trim().toLowerCase();
  if (key === '') throw new CliError('name a player by username, e-mail or wallet address');
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb('username_key', '=', usernameKey(who.trim())),
        eb(sql<string>`lower(email)`, '=', key),
        eb(sql<string>`lower(wallet_address)`, '=', key),
      ]),
    )
    .execute();
  if (rows.length === 0) throw new CliError(`no player with username, e-mail or wallet "${who}"`);
  if (rows.length > 1)
    throw new CliError(
      `"${who}" names ${rows.length} players (ids ${rows.map((r) => r.id).join(', ')}); use their e-mail or wallet`,
    );
  return rows[0];
}

/** A label for messages: the username, else the e-mail, else the wallet. */
export const userLabel = (u: User) => `${u.username ?? u.email ?? u.wallet_address ?? `#${u.id}`} (id ${u.id})`;

export interface Command {
  name: string;
  /** One line per form, e.g. `grant <user> coins|gems|pxt <amount>`. */
  usage: string[];
  summary: string;
  run(ctx: CliContext, args: string[]): Promise<void>;
}

/** Refuses a wrong number of arguments with the command's usage. */
export function expectArgs(cmd: Pick<Command, 'usage'>, args: string[], min: number, max = min): void {
  if (args.length < min || args.length > max)
    throw new CliError(`usage: ${cmd.usage.map((u) => `npm run admin -- ${u}`).join('\n       ')}`);
}
