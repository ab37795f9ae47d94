// Vite plugin: index.html's pre-paint script and the prerendered landing page.
// - Every build and `npm run dev`: the inline script in <head> that detects the language with
//   src/lib/language-detect.ts (the function i18next uses, serialised: one detection), sets <html
//   lang> and preloads that language's translations while the app's JavaScript is on its way.
// - Builds: the landing page `/` rendered by React at build time (src/app/prerender.tsx, built for
//   Node by a nested Vite build) in English inside #root, and in Russian in a <template>; an inline
//   script right after them keeps the English, swaps in the Russian when <html lang> says ru, or
//   empties #root where the prerender does not apply (another path, a signed-in player), all before
//   the first paint. main.tsx hydrates what is left. The server's CSP allows both scripts by hash
//   (scripts/vite-plugin-csp-hashes.ts hashes the written index.html).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { type Alias, build, type Plugin } from 'vite';
import { landingSwapScript, languageScript, RU_TEMPLATE_ID } from './pre-paint-scripts';
import { reactRouterTreeshake } from './vite-plugin-react-router-treeshake';

export async function renderLandings(root: string, aliases: Alias[]): Promise<Record<'en' | 'ru', string>> {
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
        ssr: 'src/app/prerender.tsx',
        outDir,
        emptyOutDir: true,
        minify: false,
        // Lazy pages stay chunks (only the landing's are imported); the wallet SDKs are not needed at all.
        rollupOptions: {
          external: [/^@metamask\//, /^viem($|\/)/],
          output: { entryFileNames: 'prerender.mjs', format: 'es' },
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
      const out = {} as Record<'en' | 'ru', string>;
      for (const lng of ['en', 'ru'] as const) {
        const dir = join(root, 'public', 'locales', lng);
        const resources = Object.fromEntries(
          readdirSync(dir)
            .filter((f) => f.endsWith('.json'))
            .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(dir, f), 'utf8'))]),
        );
        out[lng] = await mod.renderLanding(lng, resources);
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
const ROOT = '<div id="root"></div>';

/** `landing`: prerender `/` into index.html (every build; `PRERENDER_LANDING=0` skips it). */
export function prerender({ landing = process.env.PRERENDER_LANDING !== '0' }: { landing?: boolean } = {}): Plugin {
  let root = '';
  let aliases: Alias[] = [];
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
        html = html.replace(LANGUAGE_MARKER, `<script>${languageScript()}</script>`);
        if (ctx.server || !landing) return html;
        if (!html.includes(ROOT)) throw new Error(`index.html lost its ${ROOT}`);
        // Vite's own aliases (the project's and /^\/?@vite\/…/) minus its internal ones.
        const pages = await renderLandings(
          root,
          aliases.filter((a) => !String(a.find).includes('@vite')),
        );
        // The landing route's stylesheet in the HTML, so the prerendered page paints styled, and its
        // script preloaded with the entry, so hydration waits for no extra round trip.
        const chunk = Object.values(ctx.bundle ?? {}).find(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('src/app/routes/landing.tsx'),
        );
        if (chunk?.type === 'chunk') {
          const css = [...(chunk.viteMetadata?.importedCss ?? [])].map(
            (f) => `<link rel="stylesheet" crossorigin href="/${f}">`,
          );
          html = html.replace(
            '</head>',
            `  <link rel="modulepreload" crossorigin href="/${chunk.fileName}">\n    ${css.join('\n    ')}\n  </head>`,
          );
        }
        return html.replace(
          ROOT,
          `<div id="root">${pages.en}</div><template id="${RU_TEMPLATE_ID}">${pages.ru}</template>\n    <script>${landingSwapScript()}</script>`,
        );
      },
    },
  };
}
