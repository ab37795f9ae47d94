// Vite build of the PWA. The service worker (vite-plugin-pwa, `sw/`) is added by its own issue:
// append its plugin to `plugins` below; nothing else here needs to change.
import react from '@vitejs/plugin-react';
import { defineConfig, type PluginOption } from 'vite';

const plugins: PluginOption[] = [react()];

export default defineConfig({
  plugins,
  server: {
    // `npm run dev`: the API runs on 8080 (scripts/dev.mjs); the browser talks to Vite only.
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
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
