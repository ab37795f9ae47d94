// The data router: every page is a lazy module (src/app/routes/<page>.tsx); guarded pages get a
// loader that applies route-access.ts before the page loads.
import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type LoaderFunction, type RouteObject } from 'react-router';
import { currentUserOnce } from '../lib/current-user';
import { openModal } from '../lib/modal-state';
import { isSignedIn } from '../lib/session';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { ROUTE_ACCESS, decideAccess, type RoutePath } from './route-access';

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
  '*': () => import('./routes/landing'),
};

export function guardLoader(path: RoutePath): LoaderFunction | undefined {
  const access = ROUTE_ACCESS[path];
  if (access === 'public') return undefined;
  return async () => {
    const signedIn = isSignedIn();
    const iso = access === 'iso' && signedIn ? Boolean((await currentUserOnce())?.ico) : false;
    const decision = decideAccess(access, { signedIn, iso });
    if (decision.allow) return null;
    if (decision.openMainLogin) openModal('main');
    return redirect(decision.redirectTo);
  };
}

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
