// vite-plugin-pwa options (used by vite.config.ts): the worker is built from sw/sw.ts with our own
// routes (injectManifest), registered by the page itself (src/features/pwa/lib/sw-registration.ts)
// and updated only when the player agrees (registerType 'prompt'). The manifest's colours are the
// theme tokens of src/app/global.css; the icons are drawn by scripts/make-icons.mjs.
import type { VitePWAOptions } from 'vite-plugin-pwa';

const BACKGROUND = '#0b0714'; // --bg

export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'injectManifest',
  srcDir: 'sw',
  filename: 'sw.ts',
  registerType: 'prompt',
  injectRegister: false,
  // The page registers the worker lazily; no dev worker (npm run dev stays a plain Vite server).
  devOptions: { enabled: false },
  injectManifest: {
    // iife: one classic script, so every browser with service workers can run it (no module workers needed).
    rollupFormat: 'iife',
    globPatterns: ['index.html', 'assets/**/*.{js,css}', 'locales/**/*.json', 'icons/*.png', 'favicon.svg'],
    // The wallet SDK needs the network anyway (signing in), so it is not worth half a megabyte offline.
    globIgnores: ['**/metamask-sdk-*.js'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
  manifest: {
    id: '/',
    name: 'PXT Companion',
    short_name: 'PXT',
    description: 'Mine PXT, clear quests and bring your crew — the companion app of the PXT punk universe, offline too.',
    lang: 'en',
    theme_color: BACKGROUND,
    background_color: BACKGROUND,
    display: 'standalone',
    start_url: '/',
    scope: '/',
    categories: ['games', 'entertainment'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    shortcuts: [
      { name: 'Miner', short_name: 'Miner', url: '/miner', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] },
      { name: 'Tasks', short_name: 'Tasks', url: '/tasks', icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }] },
    ],
  },
};
