// The blog (decisions §9): Markdown files in the repository, `<dir>/<lang>/<slug>.md`, each with a
// small front matter (title, date, summary, cover optional). They are read, rendered and sanitised
// once per load, so requests only look things up. `reload()` re-reads the folder: a server does it
// at start and on SIGHUP; the operator CLI uses `loadBlog` to check the files and report.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Marked } from 'marked';
import sanitizeHtml from 'sanitize-html';
import { FALLBACK_LANGUAGE, type Language, LANGUAGES } from '@shared/constants';

export interface BlogSummary {
  id: string;
  lang: Language;
  title: string;
  summary: string;
  /** ISO 8601 (midnight UTC of the front matter's date). */
  date: string;
  cover: string | null;
}

export interface BlogArticle extends BlogSummary {
  html: string;
}

export interface BlogProblem {
  file: string;
  message: string;
}

export interface BlogLoad {
  articles: BlogArticle[];
  /** Files that were skipped, and why. */
  problems: BlogProblem[];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_SLUG = 100;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;
const KEYS = ['title', 'date', 'summary', 'cover'] as const;
type Key = (typeof KEYS)[number];
/** A cover is a picture the app serves (`/…`) or an https address; nothing that could run. */
/** Generated covers (scripts/blog-covers.mjs): `<dir>/covers/<slug>.svg`, served by the blog routes. */
export const COVERS_FOLDER = 'covers';
export const coverUrl = (slug: string) => `/api/v1/blog/covers/${slug}.svg`;
/** The cover file of a slug in the blog folder, or null (a bad name never reaches the disk). */
export function coverFile(dir: string, slug: string): string | null {
  if (!SLUG.test(slug) || slug.length > MAX_SLUG) return null;
  const file = join(dir, COVERS_FOLDER, `${slug}.svg`);
  return existsSync(file) ? file : null;
}

const COVER = /^(?:\/(?!\/)|https:\/\/)[^\s"'<>()\\]*$/;

const marked = new Marked({ gfm: true, async: false });

// Markdown may carry raw HTML; only this list of harmless tags and attributes survives, and links
// and images keep only web or mail addresses (no javascript:, data:, vbscript: …).
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'del',
    'code',
    'pre',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title'],
    th: ['align'],
    td: ['align'],
    code: ['class'],
    ol: ['start'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['https'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links that leave the app open in a new tab without handing it the opener.
    a: (tagName, attribs) =>
      /^https?:/i.test(attribs.href ?? '')
        ? { tagName, attribs: { ...attribs, rel: 'noopener noreferrer', target: '_blank' } }
        : {
            tagName,
            attribs: { ...Object.fromEntries(Object.entries(attribs).filter(([k]) => k !== 'target' && k !== 'rel')) },
          },
  },
};

/** Markdown to HTML that is safe to put into the page as it is. */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown) as string, SANITIZE).trim();
}

function parseFrontMatter(text: string): { fields: Partial<Record<Key, string>>; body: string; errors: string[] } {
  const clean = text.replace(/^\uFEFF/, '');
  const match = FRONT_MATTER.exec(clean);
  if (!match)
    return { fields: {}, body: clean, errors: ['no front matter (a block between two "---" lines at the top)'] };
  const fields: Partial<Record<Key, string>> = {};
  const errors: string[] = [];
  for (const line of match[1].split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const kv = /^([A-Za-z_]+):\s*(.*)$/.exec(line);
    if (!kv) {
      errors.push(`front matter line is not "key: value": ${line.slice(0, 60)}`);
      continue;
    }
    const key = kv[1].toLowerCase();
    let value = kv[2].trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0])
      value = value.slice(1, -1);
    if (!(KEYS as readonly string[]).includes(key))
      errors.push(`unknown front matter key "${kv[1]}" (known: ${KEYS.join(', ')})`);
    else fields[key as Key] = value;
  }
  return { fields, body: clean.slice(match[0].length), errors };
}

function parseArticle(id: string, lang: Language, text: string): { article?: BlogArticle; errors: string[] } {
  const { fields, body, errors } = parseFrontMatter(text);
  if (!fields.title) errors.push('title is missing');
  if (!fields.summary) errors.push('summary is missing');
  let date: string | null = null;
  if (!fields.date) errors.push('date is missing');
  else if (!/^\d{4}-\d{2}-\d{2}$/.test(fields.date) || Number.isNaN(Date.parse(`${fields.date}T00:00:00Z`))) {
    errors.push(`date must be YYYY-MM-DD, got "${fields.date}"`);
  } else {
    date = new Date(`${fields.date}T00:00:00Z`).toISOString();
    if (date.slice(0, 10) !== fields.date) errors.push(`date "${fields.date}" is not a calendar day`);
  }
  if (fields.cover && !COVER.test(fields.cover))
    errors.push('cover must be a path starting with "/" or an https:// address');
  if (body.trim() === '') errors.push('the article has no text');
  if (errors.length > 0 || !date) return { errors };
  return {
    errors,
    article: {
      id,
      lang,
      title: fields.title!,
      summary: fields.summary!,
      date,
      cover: fields.cover || null,
      html: renderMarkdown(body),
    },
  };
}

/** Reads every article under `dir`. Bad files are skipped and reported, never fatal. */
export function loadBlog(dir: string): BlogLoad {
  const articles: BlogArticle[] = [];
  const problems: BlogProblem[] = [];
  try {
    if (!statSync(dir).isDirectory()) return { articles, problems: [{ file: dir, message: 'not a folder' }] };
  } catch {
    return { articles, problems: [{ file: dir, message: 'the blog folder does not exist' }] };
  }
  for (const lang of LANGUAGES) {
    const langDir = join(dir, lang);
    let names: string[];
    try {
      names = readdirSync(langDir).sort();
    } catch {
      continue; // a language without articles falls back to English
    }
    for (const name of names) {
      const file = join(langDir, name);
      if (!name.endsWith('.md')) continue;
      const id = name.slice(0, -3);
      if (!SLUG.test(id) || id.length > MAX_SLUG) {
        problems.push({
          file,
          message: `file name must be a slug of lowercase letters, digits and dashes (at most ${MAX_SLUG})`,
        });
        continue;
      }
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (err) {
        problems.push({ file, message: `cannot read: ${(err as Error).message}` });
        continue;
      }
      const { article, errors } = parseArticle(id, lang, text);
      for (const message of errors) problems.push({ file, message });
      // Without a cover of its own, the article shows its generated one (issue 16).
      if (article && !article.cover && coverFile(dir, id)) article.cover = coverUrl(id);
      if (article && errors.length === 0) articles.push(article);
    }
  }
  return { articles, problems };
}

const newestFirst = (a: BlogSummary, b: BlogSummary) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id);

/** The loaded articles of one process, looked up by id and language. */
export class Blog {
  private byId = new Map<string, Partial<Record<Language, BlogArticle>>>();

  constructor(readonly dir: string) {}

  /** Re-reads the folder and swaps the whole set at once; answers what was loaded and skipped. */
  reload(): BlogLoad {
    const loaded = loadBlog(this.dir);
    const byId = new Map<string, Partial<Record<Language, BlogArticle>>>();
    for (const a of loaded.articles) byId.set(a.id, { ...byId.get(a.id), [a.lang]: a });
    this.byId = byId;
    return loaded;
  }

  /** The article in `lang`, else in English, else in whatever language it exists. */
  get(id: string, lang: Language): BlogArticle | null {
    const versions = this.byId.get(id);
    if (!versions) return null;
    return versions[lang] ?? versions[FALLBACK_LANGUAGE] ?? Object.values(versions)[0] ?? null;
  }

  /** Every article once, in `lang` where it exists (English otherwise), newest first. */
  list(lang: Language): BlogSummary[] {
    const out: BlogSummary[] = [];
    for (const id of this.byId.keys()) {
      const { html: _html, ...summary } = this.get(id, lang)!;
      out.push(summary);
    }
    return out.sort(newestFirst);
  }
}
