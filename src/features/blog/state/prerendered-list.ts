// The article list the build wrote into /blog's HTML (scripts/vite-plugin-prerender.ts, one JSON
// block per language). The page shows it until the stored copy exists, so the hydrated page matches
// the prerendered one and the list paints without waiting for the API.
import type { BlogSummary } from '@shared/api/blog';

/** The id of the JSON block holding a language's list in the built blog.html. */
export const prerenderedListId = (lang: string) => `blog-list-${lang}`;

const seeded = new Map<string, BlogSummary[] | null>();

/** Build time only (src/app/prerender.tsx): the list the prerendered page shows. */
export function seedPrerenderedList(lang: string, list: BlogSummary[]): void {
  seeded.set(lang, list);
}

/** The prerendered list of `lang`, or null where the page was not prerendered in it. */
export function prerenderedList(lang: string): BlogSummary[] | null {
  if (!seeded.has(lang)) {
    const block = typeof document === 'undefined' ? null : document.getElementById(prerenderedListId(lang));
    let list: BlogSummary[] | null = null;
    try {
      list = block?.textContent ? (JSON.parse(block.textContent) as BlogSummary[]) : null;
    } catch {
      list = null;
    }
    seeded.set(lang, list);
  }
  return seeded.get(lang) ?? null;
}
