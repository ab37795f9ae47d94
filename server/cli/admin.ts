// The operator CLI (decisions §11): `npm run admin -- <command> …`, straight on the database that
// DATA_DIR / DATABASE_URL name, without an HTTP server. Exit code 0 on success, 1 on any error.
import { loadConfig } from '../config';
import { backupCommand } from './commands/backup';
import { blogCommand } from './commands/blog';
import { flagCommand } from './commands/flag';
import { grantCommand } from './commands/grant';
import { helpCommand } from './commands/help';
import { ordersCommand } from './commands/orders';
import { seasonCommand } from './commands/season';
import { telegramCommand } from './commands/telegram';
import { usersCommand } from './commands/users';
import { type Command, CliError, createContext } from './context';

const commands: Command[] = [
  usersCommand,
  flagCommand,
  grantCommand,
  ordersCommand,
  blogCommand,
  seasonCommand,
  backupCommand,
  telegramCommand,
];
commands.push(helpCommand(() => commands));

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  const wanted = name === undefined || name === '--help' || name === '-h' ? 'help' : name;
  const command = commands.find((c) => c.name === wanted);
  if (!command) {
    process.stderr.write(`error: unknown command "${name}". Run "npm run admin -- help" for the list.\n`);
    return 1;
  }
  let ctx;
  try {
    ctx = createContext(loadConfig(), (line) => process.stdout.write(`${line}\n`));
    await command.run(ctx, args);
    return 0;
  } catch (err) {
    process.stderr.write(
      `error: ${err instanceof CliError ? err.message : err instanceof Error ? err.message : String(err)}\n`,
    );
    if (!(err instanceof CliError) && process.env.DEBUG) process.stderr.write(`${(err as Error).stack}\n`);
    return 1;
  } finally {
    await ctx?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
