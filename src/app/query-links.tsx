// The links of e-mails and referrals (spec §2) arrive as query parameters: their handler, with the
// auth API it calls, loads only when the address has a query, so a plain visit does not carry it.
import { lazy, Suspense } from 'react';
import { useLocation } from 'react-router';

const QueryParamsHandler = lazy(() => import('../features/auth/components/query-params-handler').then((m) => ({ default: m.QueryParamsHandler })));

export function QueryLinks() {
  const { search } = useLocation();
  if (!search) return null;
  return (
    <Suspense fallback={null}>
      <QueryParamsHandler />
    </Suspense>
  );
}
