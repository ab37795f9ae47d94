// The public blog. Articles are loaded once when the server starts; SIGHUP re-reads the folder
// (`kill -HUP <pid>` of the Node process running server/main.ts, after `npm run admin -- blog
// reload` has checked the files), so every server process can pick up new articles without a
// restart. docs/operator.md has the steps.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { blogArticleSchema, blogListSchema, blogParamsSchema, blogQuerySchema } from '@shared/api/blog';
import { notFound } from '../../lib/errors';
import { Blog, coverFile } from '../../services/blog';
import { readFile } from 'node:fs/promises';

const routes: FastifyPluginAsyncZod = async (app) => {
  const blog = new Blog(app.config.blogDir);
  const load = (why: string) => {
    const { articles, problems } = blog.reload();
    for (const p of problems) app.log.warn(`blog: ${p.file}: ${p.message}`);
    app.log.info(`blog: ${articles.length} articles loaded from ${blog.dir} (${why})`);
  };
  load('start');
  const onHangup = () => load('SIGHUP');
  process.on('SIGHUP', onHangup);
  app.addHook('onClose', async () => {
    process.off('SIGHUP', onHangup);
  });

  app.get(
    '/blog/',
    { schema: { tags: ['blog'], querystring: blogQuerySchema, response: { 200: blogListSchema } } },
    async (request) => blog.list(request.query.lang),
  );

  // A generated article cover (content/blog/covers): an image only, nothing in it may run.
  app.get('/blog/covers/:file', { schema: { tags: ['blog'], hide: true } }, async (request, reply) => {
    const name = (request.params as { file: string }).file;
    const file = name.endsWith('.svg') ? coverFile(blog.dir, name.slice(0, -4)) : null;
    if (!file) throw notFound('Cover not found.');
    return reply
      .type('image/svg+xml')
      .header('cache-control', 'public, max-age=86400')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
      .send(await readFile(file));
  });

  app.get(
    '/blog/:id/',
    {
      schema: {
        tags: ['blog'],
        params: blogParamsSchema,
        querystring: blogQuerySchema,
        response: { 200: blogArticleSchema },
      },
    },
    async (request) => {
      const article = blog.get(request.params.id, request.query.lang);
      if (!article) throw notFound('Article not found.');
      return article;
    },
  );
};
export default routes;
