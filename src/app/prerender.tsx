// Build time only (scripts/vite-plugin-prerender.ts): a page as a visitor sees it (the landing `/`,
// the blog's list `/blog` fed the articles as the API lists them), rendered to HTML in one language,
// so it paints before any JavaScript runs. main.tsx hydrates it with the same tree (StrictMode ›
// Providers › router › AppRoutes), so the markup must come out identical.
import i18next from 'i18next';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { initReactI18next } from 'react-i18next';
import { StaticRouter } from 'react-router';
import type { BlogSummary } from '@shared/api/blog';
import { seedPrerenderedList } from '@/features/blog/state/prerendered-list';
import { Providers } from './providers';
import { AppRoutes } from './router';

export type Resources = Record<string, Record<string, unknown>>;

/** `blogList`: the articles of `lng` as GET blog/ answers them (what /blog shows). */
export async function renderPage(
  path: '/' | '/blog',
  lng: string,
  resources: Resources,
  blogList: BlogSummary[] = [],
): Promise<string> {
  seedPrerenderedList(lng, blogList);
  const translations = i18next.createInstance();
  await translations.use(initReactI18next).init({
    lng,
    fallbackLng: 'en',
    resources: { [lng]: resources },
    ns: Object.keys(resources),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
    initAsync: false,
    showSupportNotice: false,
  });
  const tree = (
    <StrictMode>
      <Providers translations={translations}>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </Providers>
    </StrictMode>
  );
  // prerender waits for every Suspense boundary. React 19.2 still outlines a finished boundary
  // larger than progressiveChunkSize (12.8 KB: the page is) into a hidden <div> that a script
  // reveals later (fallback in the HTML, no content without JavaScript); no limit keeps it inline.
  const { prelude } = await prerenderToNodeStream(tree, { progressiveChunkSize: Number.MAX_SAFE_INTEGER });
  const html = await drain(prelude);
  if (html.includes('<template id="B:'))
    throw new Error(
      `prerender of ${path}: a Suspense boundary did not finish: ${html.slice(html.indexOf('<template id="B:') - 300, html.indexOf('<template id="B:') + 100)}`,
    );
  return html;
}

async function drain(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
