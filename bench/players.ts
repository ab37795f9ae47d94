// The bench's databases, opened (and migrated) from the bench process before or beside the server;
// players are seeded with tests/helpers/bulk-players.ts.
import { type Database, openDatabase } from '../server/db/database';
import { migrate } from '../server/db/migrate';
import { cleanup } from './context';

export async function openBenchDatabase(opts: { dataDir: string; databaseUrl?: string | null }): Promise<Database> {
  const opened = openDatabase({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl ?? null });
  let closing: Promise<void> | null = null;
  // Closed by the section when done, or by the cleanup stack after a failure: once either way.
  const database: Database = { ...opened, close: () => (closing ??= opened.close()) };
  cleanup.add('close bench database', () => database.close());
  await migrate(database);
  return database;
}
