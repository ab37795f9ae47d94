import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/button';
import '../components/placeholder-page.css';

/** Shown when a page fails to load or render (e.g. a lazy chunk that is gone after a deploy). */
export function RouteError() {
  const error = useRouteError();
  const { t } = useTranslation();
  console.error(error);
  const status = isRouteErrorResponse(error) ? error.status : null;
  return (
    <section className="placeholder-page" role="alert">
      <h1>{t('errors:generic.title')}</h1>
      <p>{t('errors:generic.text')}</p>
      {status !== null && <p>{status}</p>}
      <p>
        <Button onClick={() => window.location.reload()}>{t('actions.reload')}</Button>
      </p>
    </section>
  );
}
