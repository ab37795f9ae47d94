// The routes of spec §2 in React Router's declarative mode (its data router alone was 15 KB of
// brotli on the first visit, issue 14): every page is a lazy module (src/app/routes/<page>.tsx)
// behind the access check of route-guard.tsx, inside the frame of root-layout.tsx.
import { lazy, useEffect, type ComponentType } from 'react';
import { Route, Routes, useLocation, useNavigate } from 'react-router';
import { onSignedOut } from '../lib/session';
import { RootLayout } from './root-layout';
import { RouteErrorBoundary } from './route-error';
import { type RoutePath } from './route-access';
import { RouteGuard } from './route-guard';

type PageModule = { default: ComponentType };

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
  '/auth/:provider/callback': () => import('./routes/auth-callback'),
  '*': () => import('./routes/landing'),
};

const preloaded = new Map<RoutePath, PageModule>();

/** A lazy page that renders at once when its module was preloaded: React.lazy takes a thenable
 * that answers synchronously without suspending (a suspended prerendered page would hydrate late). */
function lazyPage(path: RoutePath) {
  return lazy(() => {
    const module = preloaded.get(path);
    return module
      ? ({ then: (resolve: (m: PageModule) => void) => resolve(module) } as Promise<PageModule>)
      : PAGES[path]();
  });
}

const LAZY_PAGES = (Object.keys(PAGES) as RoutePath[]).map((path) => ({ path, Page: lazyPage(path) }));

/** Loads a prerendered page's module (`/`, `/blog`) ahead of hydrating it (main.tsx). */
export async function preloadPage(path: '/' | '/blog'): Promise<void> {
  preloaded.set(path, await PAGES[path]());
}

export function AppRoutes() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  useEffect(() => onSignedOut(() => void navigate('/')), [navigate]);
  return (
    <RouteErrorBoundary resetKey={pathname}>
      <Routes>
        <Route element={<RootLayout />}>
          {LAZY_PAGES.map(({ path, Page }) => {
            const element = (
              <RouteGuard path={path}>
                <Page />
              </RouteGuard>
            );
            return path === '/' ? (
              <Route key={path} index element={element} />
            ) : (
              <Route key={path} path={path.slice(path === '*' ? 0 : 1)} element={element} />
            );
          })}
        </Route>
      </Routes>
    </RouteErrorBoundary>
  );
}
