// Vite build of the PWA. The service worker and the web app manifest come from vite-plugin-pwa
// (options in sw/pwa-options.ts, the worker's source in sw/); the hashes of index.html's inline
// scripts, which the server's CSP allows, from scripts/vite-plugin-csp-hashes.ts.
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pathAliases } from './scripts/path-aliases';
import { cspHashes } from './scripts/vite-plugin-csp-hashes';
import { pwaOptions, russianManifest } from './sw/pwa-options';

/** Vite's dev server port; scripts/dev.mjs points the API's mail links at it. */
const VITE_PORT = Number(process.env.VITE_PORT || 5173);

const plugins: PluginOption[] = [react(), VitePWA(pwaOptions), russianManifest(), cspHashes()];

export default defineConfig({
  plugins,
  resolve: { alias: pathAliases },
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
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
});
