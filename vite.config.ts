// Vite build of the PWA. The service worker and the web app manifest come from vite-plugin-pwa
// (options in sw/pwa-options.ts, the worker's source in sw/); the hashes of index.html's inline
// scripts, which the server's CSP allows, from scripts/vite-plugin-csp-hashes.ts; the .br/.gz copies
// of every file from scripts/vite-plugin-precompress.ts (last, once sw.js is written).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pathAliases } from './scripts/path-aliases';
import { cspHashes } from './scripts/vite-plugin-csp-hashes';
import { eagerCjs } from './scripts/vite-plugin-eager-cjs';
import { precompress } from './scripts/vite-plugin-precompress';
import { prerender } from './scripts/vite-plugin-prerender';
import { reactRouterTreeshake } from './scripts/vite-plugin-react-router-treeshake';
import { pwaOptions, russianManifest } from './sw/pwa-options';

/** Vite's dev server port; scripts/dev.mjs points the API's mail links at it. */
const VITE_PORT = Number(process.env.VITE_PORT || 5173);

/**
 * React Router can point bundlers at its development build (warnings, dev checks: about 7 KB of
 * brotli more on the first visit); a production build takes its production files, the same code.
 */
const REACT_ROUTER = fileURLToPath(new URL('./node_modules/react-router/dist/production/', import.meta.url));
const productionReactRouter = [
  { find: /^react-router$/, replacement: `${REACT_ROUTER}index.js` },
  { find: /^react-router\/dom$/, replacement: `${REACT_ROUTER}dom-export.js` },
];

/**
 * Dexie's package gives bundlers a wrapper around its UMD build (one copy across CommonJS and ESM);
 * the bundle has only ESM, and the UMD factory was compiled and run at its first call, one task of
 * 17-23 ms at a signed-in start in Lighthouse's trace (12-13 ms now; issue 25). Its ES module build is the same code.
 */
const dexieModule = [
  {
    find: /^dexie$/,
    replacement: fileURLToPath(new URL('./node_modules/dexie/dist/modern/dexie.mjs', import.meta.url)),
  },
];

const plugins: PluginOption[] = [
  reactRouterTreeshake(),
  react(),
  eagerCjs(),
  VitePWA(pwaOptions),
  russianManifest(),
  prerender(),
  cspHashes(),
  precompress(),
];

export default defineConfig(({ command }) => ({
  plugins,
  resolve: { alias: command === 'build' ? [...productionReactRouter, ...dexieModule, ...pathAliases] : pathAliases },
  server: {
    // `npm run dev`: the API runs on PORT (8080; scripts/dev.mjs); the browser talks to Vite only.
    port: VITE_PORT,
    strictPort: true,
    proxy: { '/api': { target: `http://127.0.0.1:${process.env.PORT || 8080}`, changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    target: 'es2022',
    // scripts/check-budgets.mjs reads the manifest to find what the first visit to / loads.
    manifest: true,
    // No <link rel=modulepreload> inserted by script at a dynamic import (the HTML's stay): each one
    // cost the main thread 0.4-0.6 ms on the 2-core machine, and a signed-in /miner's page import
    // added about twenty in one task (27 ms of Lighthouse's unthrottled trace, four times that in its
    // TBT; the entry's own imports 13-18 ms more). The browser fetches an imported module's graph
    // itself, from the service worker's precache after the first visit (issue 25, docs/choices.md).
    modulePreload: {
      polyfill: false,
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
    },
    // Terser's two passes take about 4 KB of brotli more off the first visit than esbuild's minifier.
    minify: 'terser',
    terserOptions: { ecma: 2020, module: true, compress: { passes: 2 }, format: { comments: false } },
    chunkSizeWarningLimit: 1500,
    // Rolldown (Vite 8) puts modules that the first visit shares with lazy chunks into a dozen small
    // common chunks (+4 KB of brotli over 11 files); one group keeps everything the entry loads
    // statically in one file, as Rollup did (its own helpers stay a chunk of their own, 0.6 KB).
    // Jotai's useAtom and useSetAtom and the page's card slot join it: the PWA layer loads them at
    // idle on every first visit, and as three files of their own they cost 0.6 KB of brotli more.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'] },
            { name: 'initial', test: /node_modules[\\/]jotai[\\/]|src[\\/]components[\\/]card-slot\./ },
          ],
        },
      },
    },
  },
}));
