// Build time only (scripts/vite-plugin-prerender.ts): the landing page as a visitor sees it at `/`,
// rendered to HTML in one language, so it paints before any JavaScript runs. main.tsx hydrates it
// with the same tree (StrictMode › Providers › router), so the markup must come out identical.
import i18next from 'i18next';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { initReactI18next } from 'react-i18next';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router';
import { Providers } from './providers';
import { routes } from './router';

export type Resources = Record<string, Record<string, unknown>>;

export async function renderLanding(lng: string, resources: Resources): Promise<string> {
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
  // The page's lazy module resolved up front: the static router renders what is there, it does not wait.
  for (const match of matchRoutes(routes, '/') ?? []) {
    const { lazy } = match.route;
    if (typeof lazy === 'function') Object.assign(match.route, await lazy(), { lazy: undefined });
  }
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error(`prerender of /: the router answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const tree = (
    <StrictMode>
      <Providers translations={translations}>
        <StaticRouterProvider router={router} context={context} hydrate={false} />
      </Providers>
    </StrictMode>
  );
  // prerender waits for every Suspense boundary. React 19.2 still outlines a finished boundary
  // larger than progressiveChunkSize (12.8 KB: the page is) into a hidden <div> that a script
  // reveals later (fallback in the HTML, no content without JavaScript); no limit keeps it inline.
  const { prelude } = await prerenderToNodeStream(tree, { progressiveChunkSize: Number.MAX_SAFE_INTEGER });
  const html = await drain(prelude);
  if (html.includes('<template id="B:')) throw new Error(`prerender of /: a Suspense boundary did not finish: ${html.slice(html.indexOf('<template id="B:') - 300, html.indexOf('<template id="B:') + 100)}`);
  return html;
}

async function drain(stream: AsyncIterable<Uint8Array | string>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
