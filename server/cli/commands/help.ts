// `help`: every command with its forms and what it does.
import type { Command } from '../context';

export function helpCommand(all: () => readonly Command[]): Command {
  return {
    name: 'help',
    usage: ['help'],
    summary: 'show this help',
    async run(ctx) {
      ctx.out('Operator commands: npm run admin -- <command>');
      ctx.out('They work on the database DATA_DIR / DATABASE_URL name (the same settings as the server).');
      ctx.out('<user> is a username, an e-mail or a wallet address.');
      ctx.out();
      for (const cmd of all()) {
        for (const u of cmd.usage) ctx.out(`  ${u}`);
        ctx.out(`      ${cmd.summary}`);
      }
    },
  };
}
