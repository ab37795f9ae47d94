// vite-plugin-pwa options (used by vite.config.ts): the worker is built from sw/sw.ts with our own
// routes (injectManifest), registered by the page itself (src/features/pwa/lib/sw-registration.ts)
// and updated only when the player agrees (registerType 'prompt'). The manifest's colours are the
// theme tokens of src/app/global.css; the icons are drawn by scripts/make-icons.mjs, the screenshots
// taken by scripts/make-screenshots.mjs. Russian players get manifest.ru.webmanifest (same app id,
// their name, description and shortcuts); src/lib/language.ts points <link rel=manifest> at it.
import type { Plugin } from 'vite';
import type { ManifestOptions, VitePWAOptions } from 'vite-plugin-pwa';
// Relative: this file is loaded with vite.config.ts, before the build's @shared alias exists.
// eslint-disable-next-line no-restricted-imports
import { HOME_SCREEN_START_URL } from '../shared/constants';

const BACKGROUND = '#0b0714'; // --bg

type ManifestLanguage = 'en' | 'ru';

/** The texts of the install sheet, per language. */
const TEXTS: Record<
  ManifestLanguage,
  { name: string; description: string; miner: [string, string]; tasks: [string, string]; narrow: string; wide: string }
> = {
  en: {
    name: 'PXT Companion',
    description:
      'Mine PXT, clear quests and bring your crew — the companion app of the PXT punk universe, offline too.',
    miner: ['Miner', 'Start mining or claim your PXT'],
    tasks: ['Tasks', 'Quests that pay coins'],
    narrow: 'The main page on a phone',
    wide: 'The main page on a desktop',
  },
  ru: {
    name: 'PXT Companion',
    description:
      'Майни PXT, проходи квесты и собирай банду — приложение-компаньон панк-вселенной PXT, в том числе офлайн.',
    miner: ['Майнер', 'Запустить майнинг или забрать PXT'],
    tasks: ['Задания', 'Задания с наградой в монетах'],
    narrow: 'Главная страница на телефоне',
    wide: 'Главная страница на компьютере',
  },
};

const SHORTCUT_ICONS = [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }];

export function manifestFor(lang: ManifestLanguage): Partial<ManifestOptions> {
  const t = TEXTS[lang];
  return {
    id: '/',
    name: t.name,
    short_name: 'PXT',
    description: t.description,
    lang,
    dir: 'ltr',
    theme_color: BACKGROUND,
    background_color: BACKGROUND,
    display: 'standalone',
    // Marks a launch from the home screen: the landing sends a signed-in player on to /miner and
    // drops the mark (src/features/landing/lib/home-screen-launch.ts); `id` keeps the app's identity.
    start_url: HOME_SCREEN_START_URL,
    scope: '/',
    categories: ['games', 'entertainment'],
    // An installed window that is open already takes the launch (and navigates) instead of a second one.
    launch_handler: { client_mode: ['navigate-existing', 'auto'] },
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    // The richer install sheet: one narrow (phone) and one wide (desktop) picture of the app.
    screenshots: [
      {
        src: `/screenshots/narrow-${lang}.png`,
        sizes: '390x844',
        type: 'image/png',
        form_factor: 'narrow',
        label: t.narrow,
      },
      {
        src: `/screenshots/wide-${lang}.png`,
        sizes: '1280x800',
        type: 'image/png',
        form_factor: 'wide',
        label: t.wide,
      },
    ],
    shortcuts: [
      { name: t.miner[0], short_name: t.miner[0], description: t.miner[1], url: '/miner', icons: SHORTCUT_ICONS },
      { name: t.tasks[0], short_name: t.tasks[0], description: t.tasks[1], url: '/tasks', icons: SHORTCUT_ICONS },
    ],
  };
}

/** Emits manifest.ru.webmanifest beside the English one vite-plugin-pwa writes. */
export function russianManifest(): Plugin {
  return {
    name: 'pxt-russian-manifest',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'manifest.ru.webmanifest', source: JSON.stringify(manifestFor('ru')) });
    },
  };
}

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
    globPatterns: [
      'index.html',
      'blog.html',
      'app.html',
      'assets/**/*.{js,css}',
      'locales/**/*.json',
      'icons/*.png',
      'favicon.svg',
    ],
    // The wallet SDK needs the network anyway (signing in), so it is not worth half a megabyte offline.
    globIgnores: ['**/metamask-sdk-*.js'],
    maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
  },
  manifest: manifestFor('en'),
};
