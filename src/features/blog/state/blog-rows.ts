// Live reads of the stored blog rows: undefined while Dexie answers, null when nothing is stored.
import { useLiveQuery } from '@/lib/live-query';
import type { BlogArticle, BlogSummary } from '@shared/api/blog';
import { db } from '@/lib/db';
import { articleKey, listKey } from '../api/blog-api';

export function useStoredList(lang: string): BlogSummary[] | null | undefined {
  return useLiveQuery(
    async () => ((await db.blog.get(listKey(lang)))?.value as BlogSummary[] | undefined) ?? null,
    [lang],
  );
}

export function useStoredArticle(lang: string, id: string): BlogArticle | null | undefined {
  return useLiveQuery(
    async () => ((await db.blog.get(articleKey(lang, id)))?.value as BlogArticle | undefined) ?? null,
    [lang, id],
  );
}
