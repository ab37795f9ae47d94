// The frame of every page: header, page, footer, the open modal, and the app-wide effects
// (scroll to top on navigation, the modal links of e-mails, scroll restore after a language reload).
import { Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { Spinner } from '../components/spinner';
import { UsernamePrompt } from '../features/auth/components/username-prompt';
import { Footer } from '../features/layout/components/footer';
import { Header } from '../features/layout/components/header';
import { PwaMount } from '../features/pwa/components/pwa-mount';
import { replayEarlyTap } from '../lib/early-taps';
import { restoreScrollAfterLanguageReload } from '../lib/language';
import { ModalMount } from './modal-mount';
import { ReauthMount } from './reauth-mount';
import { ReturnAfterSignIn } from './return-after-sign-in';
import { QueryLinks } from './query-links';

/** Pages without the footer (spec §2). */
const NO_FOOTER = new Set(['/miner', '/mining', '/boost']);

export function RootLayout() {
  const { pathname } = useLocation();
  const { t } = useTranslation();

  // A new page opens at its top; the first one stays where the browser or the visitor put it (a
  // prerendered page scrolled, a #hash, a restored reload): scrolling it on start moved the page
  // under a finger already pressing a button, whose release then missed it.
  const shownPath = useRef(pathname);
  useEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    window.scrollTo(0, 0);
  }, [pathname]);

  useEffect(() => {
    restoreScrollAfterLanguageReload();
  }, []);

  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <Header />
      {/* Update, install, offline and reminder notices sit in the flow under the header, so they
          take their own space instead of covering the page (issue 16). */}
      <PwaMount />
      <main className="app-main" id="main" tabIndex={-1}>
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
          <EarlyTapReplay />
        </Suspense>
      </main>
      {!NO_FOOTER.has(pathname.replace(/\/+$/, '') || '/') && <Footer />}
      <QueryLinks />
      <UsernamePrompt />
      <ReturnAfterSignIn />
      <ModalMount />
      <ReauthMount />
    </>
  );
}

/** In the page's Suspense boundary: its effect runs once the page and the frame around it are
 * hydrated, so a tap made on the prerendered page before that is made again with its handler. */
function EarlyTapReplay() {
  useEffect(replayEarlyTap, []);
  return null;
}

function PageSpinner() {
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '96px 0' }}>
      <Spinner size="lg" />
    </div>
  );
}
