// `season create <title> <starts> <ends>` and `season list`: the operator plans arcade seasons.
import { createSeason, listSeasons, SeasonRuleError } from '../../services/season';
import { CliError, type Command, expectArgs } from '../context';
import { isoTime } from '../../lib/iso-time';
import { table } from '../format';

/** An ISO 8601 date or date-time (a bare date is midnight UTC); nothing Date.parse merely guesses at. */
export function parseIsoDate(raw: string, what: string): number {
  const iso = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;
  const ms = iso.test(raw) ? Date.parse(raw.length === 10 ? `${raw}T00:00:00Z` : raw.replace(' ', 'T')) : Number.NaN;
  if (Number.isNaN(ms))
    throw new CliError(`bad ${what} date "${raw}": use ISO 8601, e.g. 2027-01-01 or 2027-01-01T12:00:00Z`);
  if (raw.length === 10 && new Date(ms).toISOString().slice(0, 10) !== raw)
    throw new CliError(`bad ${what} date "${raw}": no such day`);
  return ms;
}

export const seasonCommand: Command = {
  name: 'season',
  usage: ['season create <title> <starts> <ends>', 'season list'],
  summary: 'add an arcade season (ISO dates, no overlap with another season) or list them',
  async run(ctx, args) {
    const sub = args[0];
    if (sub === 'list') {
      expectArgs(this, args, 1);
      const seasons = await listSeasons(await ctx.db());
      const now = Date.now();
      const rows = seasons.map((s) => [
        String(s.id),
        s.title,
        isoTime(s.starts_at),
        isoTime(s.ends_at),
        now < Number(s.starts_at) ? 'planned' : now < Number(s.ends_at) ? 'active' : 'ended',
      ]);
      if (rows.length === 0) ctx.out('no seasons');
      else for (const line of table(['id', 'title', 'starts (UTC)', 'ends (UTC)', 'state'], rows)) ctx.out(line);
      return;
    }
    if (sub !== 'create')
      throw new CliError(
        `unknown season command "${sub ?? ''}": use season create <title> <starts> <ends> or season list`,
      );
    expectArgs(this, args, 4);
    const [, title, startsRaw, endsRaw] = args;
    const startsAt = parseIsoDate(startsRaw, 'start');
    const endsAt = parseIsoDate(endsRaw, 'end');
    const db = await ctx.db();
    let created;
    try {
      created = await db.transaction().execute((trx) => createSeason(trx, { title, startsAt, endsAt }));
    } catch (err) {
      if (err instanceof SeasonRuleError) throw new CliError(err.message);
      throw err;
    }
    ctx.out(
      `created season #${created.id} "${created.title}": ${isoTime(created.starts_at)} – ${isoTime(created.ends_at)}`,
    );
  },
};
