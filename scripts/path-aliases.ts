// The import aliases `@/…` (src/) and `@shared/…` (shared/) for Vite, the service worker's build
// (vite-plugin-pwa passes Vite's `resolve` on) and Vitest. tsconfig.json's `paths` says the same
// for TypeScript, tsx and esbuild (both read it); keep the two in step.
import { fileURLToPath } from 'node:url';
import type { Alias } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

// Regular expressions, so `@/` never matches a scoped package such as `@metamask/sdk`.
export const pathAliases: Alias[] = [
  { find: /^@\//, replacement: `${root}src/` },
  { find: /^@shared\//, replacement: `${root}shared/` },
];
