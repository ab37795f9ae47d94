// The data router: every page is a lazy module (src/app/routes/<page>.tsx); guarded pages get the
// loader of route-guard.ts.
import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { type RoutePath } from './route-access';
import { guardLoader } from './route-guard';

type PageModule = { default: ComponentType };
const page = (load: () => Promise<PageModule>) => async () => ({ Component: (await load()).default });

const PAGES: Record<RoutePath, () => Promise<PageModule>> = {
  '/': () => import('./routes/landing'),
  '/blog': () => import('./routes/blog'),
  '/profile': () => import('./routes/profile'),
  '/tasks': () => import('./routes/tasks'),
  '/article/:id': () => import('./routes/article'),
  '/referrals': () => import('./routes/referrals'),
  '/arcade': () => import('./routes/arcade'),
  '/miner': () => import('./routes/miner'),
  '/mining': () => import('./routes/mining'),
  '/boost': () => import('./routes/boost'),
  '/ico': () => import('./routes/ico'),
  '/privacy': () => import('./routes/privacy'),
  '/terms': () => import('./routes/terms'),
  '*': () => import('./routes/landing'),
};

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: RootLayout,
    ErrorBoundary: RouteError,
    children: (Object.keys(PAGES) as RoutePath[]).map((path): RouteObject => {
      const common = { loader: guardLoader(path), lazy: page(PAGES[path]) };
      if (path === '/') return { index: true, ...common };
      return { path: path.slice(path === '*' ? 0 : 1), ...common };
    }),
  },
];

export const router = createBrowserRouter(routes);
