// Cards that arrive on their own wait for the player's next page (issue 14: pushed in under the
// header mid-page, they shifted every first visit on a phone by 0.17).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { atom, createStore, Provider as JotaiProvider, useAtomValue } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { useEffect } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { START_GLOBAL } from '@/lib/early-taps';
import { InstallPrompt } from '@/features/pwa/components/install-prompt';
import { OfflineReady } from '@/features/pwa/components/offline-ready';
import { useFromNextPageUnlessAsked } from '@/features/pwa/lib/from-next-page';
import { watchPageInput } from '@/features/pwa/lib/page-input';
import { installPromptAtom, offlineReadyAtom, type BeforeInstallPromptEvent } from '@/features/pwa/state/pwa-atoms';
import { load } from './locale-helpers';
import { testI18n } from './test-i18n';

afterEach(cleanup);

const pwa = load('en', 'pwa') as { offlineReady: { title: string; ok: string }; install: { button: string } };

async function mount() {
  const i = await testI18n('en', ['pwa']);
  const store = createStore();
  const Cards = () => (
    <>
      <OfflineReady />
      <InstallPrompt />
    </>
  );
  const router = createMemoryRouter([{ path: '*', Component: Cards }], { initialEntries: ['/'] });
  render(
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i}>
        <RouterProvider router={router} />
      </I18nextProvider>
    </JotaiProvider>,
  );
  return { store, router };
}

describe('PWA cards that arrive on their own', () => {
  it('the ready-offline notice and the install offer wait for the next page, then stay, one card at a time', async () => {
    const { store, router } = await mount();
    act(() => {
      store.set(offlineReadyAtom, true);
      store.set(installPromptAtom, {
        prompt: async () => {},
        userChoice: new Promise(() => {}),
      } as unknown as BeforeInstallPromptEvent);
    });
    expect(screen.queryByText(pwa.offlineReady.title)).toBeNull();
    expect(screen.queryByRole('button', { name: pwa.install.button })).toBeNull();
    await act(() => router.navigate('/blog'));
    expect(screen.getByText(pwa.offlineReady.title)).toBeTruthy();
    // Issue 24: one card at a time: the install offer waits until the notice is read.
    expect(screen.queryByRole('button', { name: pwa.install.button })).toBeNull();
    await act(() => router.navigate('/tasks'));
    expect(screen.getByText(pwa.offlineReady.title)).toBeTruthy();
    act(() => screen.getByRole('button', { name: pwa.offlineReady.ok }).click());
    expect(screen.queryByText(pwa.offlineReady.title)).toBeNull();
    expect(screen.getByRole('button', { name: pwa.install.button })).toBeTruthy();
  });
});

describe('a page the visitor opened natively from one the app never ran on (issue 25)', () => {
  afterEach(() => delete (window as unknown as Record<string, unknown>)[START_GLOBAL]);

  /** The start gate of the page (lib/start-on-intent.ts) says how it was opened; the shell watches its pages. */
  async function mountOpened(earlierPage: boolean) {
    (window as unknown as Record<string, unknown>)[START_GLOBAL] = { earlierPage };
    const mounted = await mount();
    act(() => watchPageInput(mounted.router.state.location.key));
    return mounted;
  }

  it("is the app's next page already: the offline notice due from the page left shows on it", async () => {
    const { store } = await mountOpened(true);
    act(() => store.set(offlineReadyAtom, true));
    expect(screen.getByText(pwa.offlineReady.title)).toBeTruthy();
    act(() => screen.getByRole('button', { name: pwa.offlineReady.ok }).click());
    expect(screen.queryByText(pwa.offlineReady.title)).toBeNull();
  });

  it('opened any other way (a new visit, a reload), it is a first page: the notice waits for the next', async () => {
    const { store, router } = await mountOpened(false);
    act(() => store.set(offlineReadyAtom, true));
    expect(screen.queryByText(pwa.offlineReady.title)).toBeNull();
    await act(() => router.navigate('/blog'));
    expect(screen.getByText(pwa.offlineReady.title)).toBeTruthy();
  });
});

describe('the reminder switch (useFromNextPageUnlessAsked)', () => {
  function Probe({ due }: { due: boolean | undefined }) {
    return useFromNextPageUnlessAsked(due) ? <p>card</p> : null;
  }
  function mountProbe(due: boolean | undefined) {
    const dueAtom = atom(due);
    const Card = () => {
      // As the shell's PwaMount does: the page input is watched from the start, before the layer.
      const { key } = useLocation();
      useEffect(() => watchPageInput(key), [key]);
      return <Probe due={useAtomValue(dueAtom)} />;
    };
    const store = createStore();
    const router = createMemoryRouter([{ path: '*', Component: Card }], { initialEntries: ['/miner'] });
    render(
      <JotaiProvider store={store}>
        <RouterProvider router={router} />
      </JotaiProvider>,
    );
    return { setDue: (v: boolean) => act(() => store.set(dueAtom, v)), router };
  }

  it('due when the layer arrives (the player mined before): waits for the next page', async () => {
    const { router } = mountProbe(true);
    expect(screen.queryByText('card')).toBeNull();
    await act(() => router.navigate('/boost'));
    await act(() => router.navigate('/miner'));
    expect(screen.getByText('card')).toBeTruthy();
  });

  it('turned due by data arriving, with no tap on the page: waits for the next page', async () => {
    const { setDue, router } = mountProbe(undefined);
    setDue(false);
    setDue(true);
    expect(screen.queryByText('card')).toBeNull();
    await act(() => router.navigate('/boost'));
    expect(screen.getByText('card')).toBeTruthy();
  });

  it('turned due after the player tapped on this page (they pressed Start): at once', async () => {
    const { setDue } = mountProbe(false);
    fireEvent.pointerDown(document.body);
    setDue(true);
    expect(screen.getByText('card')).toBeTruthy();
  });

  it('a tap before the layer knew anything (it arrives late on a loaded phone), then due: at once', async () => {
    const { setDue } = mountProbe(undefined);
    fireEvent.pointerDown(document.body);
    setDue(true);
    expect(screen.getByText('card')).toBeTruthy();
  });

  it('a tap on an earlier page does not count for this one', async () => {
    const { setDue, router } = mountProbe(false);
    fireEvent.keyDown(document.body, { key: 'Enter' });
    await act(() => router.navigate('/boost'));
    setDue(true);
    expect(screen.queryByText('card')).toBeNull();
  });
});
