// GET /blog/?lang= (list) and GET /blog/{id}/?lang= (one article, HTML rendered and sanitised on
// the server). Public: no token needed. `lang` says which language the text is in: an article
// without a version in the asked language comes in English.
import { z } from 'zod';
import { FALLBACK_LANGUAGE, LANGUAGES } from '../constants';

export const blogQuerySchema = z.object({
  lang: z.enum(LANGUAGES).default(FALLBACK_LANGUAGE),
});

export const blogParamsSchema = z.object({
  id: z.string().min(1).max(200),
});

export const blogSummarySchema = z.object({
  id: z.string(),
  lang: z.enum(LANGUAGES),
  title: z.string(),
  summary: z.string(),
  /** ISO 8601 */
  date: z.string(),
  /** A picture path or https address, or null. */
  cover: z.string().nullable(),
});
export type BlogSummary = z.infer<typeof blogSummarySchema>;

export const blogListSchema = z.array(blogSummarySchema);

export const blogArticleSchema = blogSummarySchema.extend({
  /** Sanitised HTML, safe to insert as it is. */
  html: z.string(),
});
export type BlogArticle = z.infer<typeof blogArticleSchema>;
