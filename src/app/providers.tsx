import { Provider as JotaiProvider } from 'jotai';
import { Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import type { i18n as I18n } from 'i18next';
import { Spinner } from '../components/spinner';
import { i18n } from '../lib/i18n';
import { store } from '../lib/store';

/** `translations`: the build's prerender (app/prerender.tsx) passes its own instance, one per language. */
export function Providers({ children, translations = i18n }: { children: ReactNode; translations?: I18n }) {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={translations}>
        <Suspense fallback={<BootFallback />}>{children}</Suspense>
      </I18nextProvider>
    </JotaiProvider>
  );
}

function BootFallback() {
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Spinner size="lg" />
    </div>
  );
}
