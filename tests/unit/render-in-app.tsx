// Renders a component the way the app does (the app's Jotai store, i18next with the shipped English
// texts of common/auth/errors, a router at `url`) for the auth dialog tests. The store is passed in:
// the tests import app modules only after stubbing fetch.
import { render } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { testI18n } from './test-i18n';

type Store = Parameters<typeof JotaiProvider>[0]['store'];

export async function renderInApp(node: ReactNode, store: Store, url = '/'): Promise<void> {
  const i = await testI18n('en', ['common', 'auth', 'errors']);
  render(
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i}>
        <MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>
      </I18nextProvider>
    </JotaiProvider>,
  );
}
