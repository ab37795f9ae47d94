// The blog's HTTP calls (GET blog/?lang=, GET blog/{id}/?lang=). Both are public, so no token is
// sent; every answer is written to Dexie `blog` and the pages render what is stored there, so an
// article read once still opens offline.
import type { BlogArticle, BlogSummary } from '@shared/api/blog';
import { api } from '@/lib/api-client';
import { toApiFailure } from '@/lib/api-errors';
import { db, type BlogRow } from '@/lib/db';

export const listKey = (lang: string) => `${lang}:list`;
export const articleKey = (lang: string, id: string) => `${lang}:${id}`;

/** Fetches the article list of a language into Dexie. */
export async function refreshBlogList(lang: string): Promise<void> {
  const list = await api<BlogSummary[]>('blog/', { query: { lang }, skipAuth: true });
  const row: BlogRow = { key: listKey(lang), lang, id: 'list', value: list, fetchedAt: Date.now() };
  await db.blog.put(row);
}

/** Fetches one article into Dexie; a 404 removes the stored copy (the article was taken down). */
export async function refreshArticle(lang: string, id: string): Promise<void> {
  try {
    const article = await api<BlogArticle>(`blog/${encodeURIComponent(id)}/`, { query: { lang }, skipAuth: true });
    const row: BlogRow = { key: articleKey(lang, id), lang, id, value: article, fetchedAt: Date.now() };
    await db.blog.put(row);
  } catch (err) {
    if (toApiFailure(err, '').status === 404) await db.blog.delete(articleKey(lang, id));
    throw err;
  }
}
