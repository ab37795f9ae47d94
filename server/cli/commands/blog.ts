// `blog reload`: reads the blog folder as a server would and reports what it found. The CLI cannot
// reach running servers (there may be several, on other machines), so each one re-reads the folder
// on SIGHUP or restart; this command checks the files first and says how to apply them.
import { LANGUAGES } from '@shared/constants';
import { loadBlog } from '../../services/blog';
import { CliError, type Command, expectArgs } from '../context';

export const blogCommand: Command = {
  name: 'blog',
  usage: ['blog reload'],
  summary: 'check the blog articles (BLOG_DIR) and tell running servers how to pick them up',
  async run(ctx, args) {
    expectArgs(this, args, 1);
    if (args[0] !== 'reload') throw new CliError(`unknown blog command "${args[0]}": use blog reload`);
    const { articles, problems } = loadBlog(ctx.config.blogDir);
    const perLang = LANGUAGES.map((lang) => `${articles.filter((a) => a.lang === lang).length} ${lang}`).join(', ');
    ctx.out(`${ctx.config.blogDir}: ${new Set(articles.map((a) => a.id)).size} articles (${perLang})`);
    for (const a of [...articles].sort(
      (x, y) => y.date.localeCompare(x.date) || x.id.localeCompare(y.id) || x.lang.localeCompare(y.lang),
    )) {
      ctx.out(`  ${a.date.slice(0, 10)}  ${a.lang}  ${a.id}  ${a.title}`);
    }
    if (problems.length > 0) {
      for (const p of problems) ctx.out(`  skipped ${p.file}: ${p.message}`);
      throw new CliError(
        `${problems.length} problem${problems.length === 1 ? '' : 's'} in the blog folder; fix them, then run blog reload again`,
      );
    }
    ctx.out('All articles are valid. Running servers load them on restart or on SIGHUP (kill -HUP <server pid>).');
  },
};
