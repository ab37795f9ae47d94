// Vite plugin: index.html's pre-paint script and the prerendered pages.
// - Every build and `npm run dev`: the inline script in <head> that detects the language with
//   src/lib/language-detect.ts (the function i18next uses, serialised: one detection), sets <html
//   lang> and preloads that language's translations while the app's JavaScript is on its way.
// - Builds: the landing page `/` rendered by React at build time (src/app/prerender.tsx, built for
//   Node by a nested Vite build) in English inside #root, and in Russian in a <template>; an inline
//   script right after them keeps the English, swaps in the Russian when <html lang> says ru, or
//   empties #root where the prerender does not apply (another path, a signed-in player), all before
//   the first paint. The server's CSP allows both scripts by hash (scripts/vite-plugin-csp-hashes.ts
//   hashes the written index.html); the build minifies them.
// - Builds: the app is no longer a module script of the HTML. Its files (the entry, its static
//   imports, the page's route chunk) are listed in a JSON block (`pxt-start`), and the inline
//   scripts start it from there (src/lib/start-on-intent.ts): at once, as before, everywhere but on
//   a visitor's prerendered page, where it starts at the first tap and its files are only
//   prefetched after load. main.tsx hydrates what is in #root.
// - The same for the blog's list `/blog` in blog.html (server/plugins/static-app.ts and the service
//   worker answer /blog with it), fed the articles as GET blog/ lists them (server/services/blog.ts
//   on BLOG_DIR, else content/blog), with each language's list as JSON for the page to hydrate from.
//   Its inline scripts are those of index.html, byte for byte, so the same CSP hashes allow them
//   (its file list, a JSON block, is its own: data, not a script the CSP governs).
// - Every other path gets app.html: the same head and inline scripts around an empty #root, without
//   a prerendered page or its stylesheet. A signed-in /miner parsed, styled and laid out the whole
//   landing (30 KB, both languages) only for the script after #root to empty it: 30-60 ms of the
//   main thread on the 2-core machine before the app could start (issue 25).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Alias, build, type Plugin } from 'vite';
import { START_FILES_ID, type StartFiles } from '../src/lib/start-on-intent';
import {
  BLOG_LIST_BLOCK,
  landingSwapScript,
  languageScript,
  minifyInline,
  pageNamespaces,
  PRERENDERED_DATA_ATTRIBUTE,
  PRERENDERED_PATH_ATTRIBUTE,
  RU_TEMPLATE_ID,
} from './pre-paint-scripts';
import { reactRouterTreeshake } from './vite-plugin-react-router-treeshake';

type Lang = 'en' | 'ru';
type PagePath = '/' | '/blog';
type Rendered = Record<PagePath, Record<Lang, string>> & { blogLists: Record<Lang, unknown[]> };

export async function renderPages(root: string, aliases: Alias[]): Promise<Rendered> {
  // Inside the project, so the built module finds react, react-dom… in node_modules (one copy each).
  const outDir = mkdtempSync(join(root, '.prerender-'));
  try {
    await build({
      configFile: false,
      root,
      logLevel: 'warn',
      mode: 'production',
      plugins: [reactRouterTreeshake(), react()],
      resolve: { alias: aliases },
      ssr: { target: 'node' },
      build: {
        // The blog's service too: the list is the API's own (its Markdown reading and sorting).
        ssr: true,
        outDir,
        emptyOutDir: true,
        minify: false,
        // Lazy pages stay chunks (only the landing's are imported); the wallet SDKs are not needed at all.
        rollupOptions: {
          external: [/^@metamask\//, /^viem($|\/)/],
          input: { prerender: 'src/app/prerender.tsx', blog: 'server/services/blog.ts' },
          output: { entryFileNames: '[name].mjs', format: 'es' },
        },
      },
    });
    // The app's modules expect a browser at import (the router's history, stored tokens): a blank
    // jsdom page at `/` with empty storage is a visitor's first visit.
    type Dom = { window: Window & typeof globalThis };
    const { JSDOM } = (await import('jsdom' as string)) as {
      JSDOM: new (html: string, options: { url: string }) => Dom;
    };
    const dom = new JSDOM('<!doctype html><html><head></head><body></body></html>', { url: 'http://localhost/' });
    const g = globalThis as Record<string, unknown>;
    const saved = { window: g.window, document: g.document, localStorage: g.localStorage };
    g.window = dom.window;
    g.document = dom.window.document;
    g.localStorage = dom.window.localStorage;
    try {
      const mod = (await import(
        pathToFileURL(join(outDir, 'prerender.mjs')).href
      )) as typeof import('../src/app/prerender');
      const { Blog } = (await import(
        pathToFileURL(join(outDir, 'blog.mjs')).href
      )) as typeof import('../server/services/blog');
      const blog = new Blog(process.env.BLOG_DIR ? resolve(process.env.BLOG_DIR) : join(root, 'content', 'blog'));
      blog.reload();
      const out: Rendered = { '/': { en: '', ru: '' }, '/blog': { en: '', ru: '' }, blogLists: { en: [], ru: [] } };
      for (const lng of ['en', 'ru'] as const) {
        const dir = join(root, 'public', 'locales', lng);
        const resources = Object.fromEntries(
          readdirSync(dir)
            .filter((f) => f.endsWith('.json'))
            .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(dir, f), 'utf8'))]),
        );
        out['/'][lng] = await mod.renderPage('/', lng, resources);
        out.blogLists[lng] = blog.list(lng);
        out['/blog'][lng] = await mod.renderPage('/blog', lng, resources, blog.list(lng));
      }
      return out;
    } finally {
      g.window = saved.window;
      g.document = saved.document;
      g.localStorage = saved.localStorage;
      dom.window.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

const LANGUAGE_MARKER = '<!-- pre-paint language script (scripts/vite-plugin-prerender.ts) -->';
/** Where a prerendered page's file list (START_FILES_ID) goes: before the <head> script that reads it. */
const FILES_MARKER = '<!-- start files -->';
const ROOT = '<div id="root"></div>';

/** The routes' lazy modules whose chunk and stylesheets each prerendered page loads at once. */
const PAGE_ROUTES: Record<PagePath, string> = { '/': 'src/app/routes/landing.tsx', '/blog': 'src/app/routes/blog.tsx' };
export const BLOG_HTML = 'blog.html';
export const APP_HTML = 'app.html';
const MANIFEST_LINK = /<link rel="manifest"[^>]*>/;

/** `landing`: prerender `/` into index.html and `/blog` into blog.html (every build; `PRERENDER_LANDING=0` skips both). */
export function prerender({ landing = process.env.PRERENDER_LANDING !== '0' }: { landing?: boolean } = {}): Plugin {
  let root = '';
  let aliases: Alias[] = [];
  let blogHtml: string | null = null;
  let appHtml: string | null = null;
  return {
    name: 'pxt:prerender',
    configResolved(config) {
      root = resolve(config.root);
      aliases = config.resolve.alias as Alias[];
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (!html.includes(LANGUAGE_MARKER)) throw new Error(`index.html lost its marker ${LANGUAGE_MARKER}`);
        if (ctx.server || !landing) return html.replace(LANGUAGE_MARKER, `<script>${languageScript()}</script>`);
        html = html.replace(LANGUAGE_MARKER, `${FILES_MARKER}<script>${minifyInline(languageScript())}</script>`);
        if (!html.includes(ROOT)) throw new Error(`index.html lost its ${ROOT}`);
        // The app no longer starts by a module script of the HTML: the start script (src/lib/
        // start-on-intent.ts) adds it, at once or on a visitor's first intent, from the file list
        // below. Vite's tags for the entry and its static imports go.
        const bundle = ctx.bundle ?? {};
        const entry = ctx.chunk;
        if (!entry) throw new Error('prerender: no entry chunk for index.html');
        const staticImports = (fileName: string, seen = new Set<string>()) => {
          const c = bundle[fileName];
          if (seen.has(fileName) || c?.type !== 'chunk') return seen;
          seen.add(fileName);
          for (const i of c.imports) staticImports(i, seen);
          return seen;
        };
        const entryModules = [...staticImports(entry.fileName)];
        const entryTag = `<script type="module" crossorigin src="/${entry.fileName}"></script>`;
        if (!html.includes(entryTag)) throw new Error(`prerender: index.html lost Vite's ${entryTag}`);
        const drop = (tag: string) =>
          (html = html.replace(new RegExp(`\\s*${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`), ''));
        drop(entryTag);
        for (const f of entryModules) drop(`<link rel="modulepreload" crossorigin href="/${f}">`);
        if (/<link[^>]*rel="modulepreload"/.test(html))
          throw new Error('prerender: a modulepreload of the entry was left in index.html');
        // Vite's own aliases (the project's and /^\/?@vite\/…/) minus its internal ones.
        const pages = await renderPages(
          root,
          aliases.filter((a) => !String(a.find).includes('@vite')),
        );
        const withFiles = (out: string, path: PagePath | null, pageModules: string[]) => {
          const files: StartFiles = {
            page: path,
            entry: `/${entry.fileName}`,
            modules: entryModules.slice(1).map((f) => `/${f}`),
            pageModules: pageModules.map((f) => `/${f}`),
            namespaces: pageNamespaces(path ?? ''),
          };
          return out.replace(
            FILES_MARKER,
            `<script type="application/json" id="${START_FILES_ID}">${JSON.stringify(files)}</script>\n    `,
          );
        };
        const startScript = `<script>${minifyInline(landingSwapScript())}</script>`;
        const page = (path: PagePath) => {
          // The route's stylesheet in the HTML, so the prerendered page paints styled, and its
          // script in the file list, loaded with the entry, so hydration waits for no extra round trip.
          let out = html;
          const chunk = Object.values(bundle).find(
            (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(PAGE_ROUTES[path]),
          );
          if (chunk?.type !== 'chunk') throw new Error(`prerender: no chunk for ${PAGE_ROUTES[path]}`);
          // The stylesheets of the route's chunk and of what it imports statically (the blog's
          // page component is a chunk of its own, with blog.css).
          const pageChunks = [...staticImports(chunk.fileName)];
          const styles = new Set<string>();
          for (const f of pageChunks) {
            const c = bundle[f];
            if (c?.type === 'chunk') for (const css of c.viteMetadata?.importedCss ?? []) styles.add(css);
          }
          const css = [...styles]
            .filter((f) => !out.includes(`/${f}"`))
            .map((f) => `<link rel="stylesheet" crossorigin href="/${f}">`);
          out = out.replace('</head>', `  ${css.join('\n    ')}\n  </head>`);
          out = withFiles(
            out,
            path,
            pageChunks.filter((f) => !entryModules.includes(f)),
          );
          // `<` escaped so an article's text can never close the JSON block.
          const data =
            path === '/blog'
              ? (['en', 'ru'] as const)
                  .map(
                    (lng) =>
                      `<script type="application/json" id="${BLOG_LIST_BLOCK}${lng}" ${PRERENDERED_DATA_ATTRIBUTE}>${JSON.stringify(pages.blogLists[lng]).replace(/</g, '\\u003c')}</script>`,
                  )
                  .join('')
              : '';
          return out.replace(
            ROOT,
            `<div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="${path}">${pages[path].en}</div><template id="${RU_TEMPLATE_ID}">${pages[path].ru}</template>${data}\n    ${startScript}`,
          );
        };
        blogHtml = page('/blog');
        appHtml = withFiles(html, null, []).replace(ROOT, `${ROOT}\n    ${startScript}`);
        return page('/');
      },
    },
    // After Vite's own generateBundle has written index.html into the bundle (and called the hook above).
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        if (!blogHtml || !appHtml) return;
        // vite-plugin-pwa adds the manifest's link to index.html after the hook above: the other
        // pages need it as much (Chromium offers installation from the page that links it).
        const index = bundle['index.html'];
        const manifestLink = index?.type === 'asset' ? MANIFEST_LINK.exec(String(index.source))?.[0] : undefined;
        if (!manifestLink) throw new Error('prerender: index.html has no manifest link to copy');
        const withManifest = (html: string) =>
          MANIFEST_LINK.test(html) ? html : html.replace('</head>', `${manifestLink}</head>`);
        this.emitFile({ type: 'asset', fileName: BLOG_HTML, source: withManifest(blogHtml) });
        this.emitFile({ type: 'asset', fileName: APP_HTML, source: withManifest(appHtml) });
        blogHtml = appHtml = null;
      },
    },
  };
}
