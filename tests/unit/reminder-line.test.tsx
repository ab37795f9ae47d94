// The miner page's own claim reminder (sw/push.ts asks the page first): shown while the player
// looks at their miner, gone once that session is claimed. It stayed above the reward moment.
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, expect, it, vi } from 'vitest';
import { PUSH_REMINDER } from '@shared/sw-messages';
import { db } from '@/lib/db';
import { ReminderLine } from '@/features/pwa/components/reminder-line';
import { load } from './locale-helpers';
import { testI18n } from './test-i18n';

afterEach(cleanup);

const worker = new EventTarget();
Object.defineProperty(navigator, 'serviceWorker', { value: worker, configurable: true });

it('shows the reminder of a session on the miner, and takes it away once that session is claimed', async () => {
  const i = await testI18n('en', ['pwa']);
  window.history.pushState({}, '', '/miner');
  vi.spyOn(document, 'hasFocus').mockReturnValue(true);
  await db.sessions.put({ id: 41, kind: 'session', claimed: false });
  const router = createMemoryRouter([{ path: '*', Component: ReminderLine }], { initialEntries: ['/miner'] });
  render(
    <I18nextProvider i18n={i}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
  await act(async () => {
    worker.dispatchEvent(new MessageEvent('message', { data: { type: PUSH_REMINDER, payload: { session_id: 41 } } }));
  });
  const line = await screen.findByTestId('reminder-line');
  expect(line.textContent).toContain((load('en', 'pwa') as { push: { inPage: string } }).push.inPage);

  // The claim writes the session back claimed: the reward moment speaks now, not the reminder.
  await act(async () => {
    await db.sessions.put({ id: 41, kind: 'session', claimed: true });
  });
  await vi.waitFor(() => expect(screen.queryByTestId('reminder-line')).toBeNull());
});
