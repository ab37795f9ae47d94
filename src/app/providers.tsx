import { Provider as JotaiProvider } from 'jotai';
import { Suspense, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { Spinner } from '../components/spinner';
import { i18n } from '../lib/i18n';
import { store } from '../lib/store';

export function Providers({ children }: { children: ReactNode }) {
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
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
