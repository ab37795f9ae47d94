// What checking Telegram's init data costs a sign-in (decisions §14): the HMAC check of
// services/telegram-auth.ts alone, and with the replay record it writes (one insert into
// `telegram_auth_hashes`, SQLite as the default install runs it). Init data is signed beforehand,
// as Telegram would, so only the server's share is timed.
import { telegramFrom } from '../server/env/social';
import { checkInitData, markTelegramHashUsed } from '../server/services/telegram-auth';
import { signInitData, testBotToken } from '../tests/helpers/telegram-signing';
import type { BenchOptions } from './context';
import { tempDir } from './context';
import { openBenchDatabase } from './players';
import type { Table } from './table';

export async function telegramSection(table: Table, opts: BenchOptions): Promise<void> {
  const botToken = testBotToken();
  const settings = telegramFrom(
    {
      TELEGRAM_BOT_TOKEN: botToken,
      TELEGRAM_BOT_USERNAME: 'pxt_bench_bot',
      TELEGRAM_WEBHOOK_SECRET: 'bench-webhook-secret-0123456789',
    },
    false,
  )!;
  const count = opts.quick ? 2000 : 20_000;
  const signed = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      signInitData(botToken, {
        user: { id: 5_000_000 + i, first_name: 'Bench', username: `bench_${i}`, language_code: 'en' },
      }),
    );
  const database = await openBenchDatabase({ dataDir: tempDir('telegram') });
  try {
    // Warm-up: JIT and the statement cache.
    for (const data of signed(200)) await markTelegramHashUsed(database.db, checkInitData(settings, data));

    const onlyCheck = signed(count);
    let started = performance.now();
    for (const data of onlyCheck) checkInitData(settings, data);
    const checkMicros = ((performance.now() - started) * 1000) / count;

    const withInsert = signed(count);
    started = performance.now();
    for (const data of withInsert) await markTelegramHashUsed(database.db, checkInitData(settings, data));
    const totalMicros = ((performance.now() - started) * 1000) / count;

    table.add({
      section: 'telegram',
      measure: 'init-data check per sign-in (HMAC, parse)',
      result: `${checkMicros.toFixed(1)} µs`,
      verdict: 'info',
    });
    table.add({
      section: 'telegram',
      measure: 'init-data check + replay record (SQLite insert)',
      result: `${totalMicros.toFixed(1)} µs`,
      verdict: 'info',
    });
  } finally {
    await database.close();
  }
}
