// The links of e-mails and referrals (spec §2) arrive as query parameters: their handler, with the
// auth API it calls, loads only when the address has a query, so a plain visit does not carry it.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';

const QueryParamsHandler = lazy(() =>
  import('../features/auth/components/query-params-handler').then((m) => ({ default: m.QueryParamsHandler })),
);

export function QueryLinks() {
  const { search } = useLocation();
  // Not before mount: the prerendered landing was rendered without a query, and a boundary here
  // while hydrating `/?refCode=…` did not match it (React then threw the page away and rendered it
  // anew, losing a tap made meanwhile).
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  if (!search || !mounted) return null;
  return (
    <Suspense fallback={null}>
      <QueryParamsHandler />
    </Suspense>
  );
}
