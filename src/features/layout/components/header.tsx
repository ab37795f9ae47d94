import { useAtomValue } from 'jotai';
import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { NARROW_BREAKPOINT_PX } from '@shared/constants';
import { Button } from '@/components/button';
import { hasIdentity, logout, useCurrentUser, userFetchFailedAtom, userStatusAtom } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { signedInAtom } from '@/lib/session';
import { useMediaQuery } from '@/lib/use-media-query';
import { fadeClass, initialFadeState, nextFadeState } from '../state/header-fade';
import { DisabledEntry } from './disabled-entry';
import { LanguageSwitcher } from './language-switcher';
import { AccountEntries, GameEntries } from './menu-entries';
import { NavEntry } from './nav-entry';
import { PixelLogo } from './pixel-logo';
import './header.css';

// Only a signed-in player has the block: a visitor's first load does not carry it.
const PlayerMenu = lazy(() => import('./player-menu').then((m) => ({ default: m.PlayerMenu })));

export function Header() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const signedIn = useAtomValue(signedInAtom);
  const user = useCurrentUser();
  const narrow = useMediaQuery(`(max-width: ${NARROW_BREAKPOINT_PX - 0.02}px)`);
  const [fade, setFade] = useState(initialFadeState);
  const [navOpen, setNavOpen] = useState(false);
  const navId = useId();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);

  // "Adjust state while rendering" (React docs): the fade class is decided for the new path at once.
  const next = nextFadeState(fade, pathname);
  if (next !== fade) setFade(next);
  useEffect(() => setNavOpen(false), [pathname]);
  // The phone menu closes like the account menu does: Escape (focus back on its button) or a tap
  // anywhere outside it, the account block included, so the two never stand on top of each other.
  useEffect(() => {
    if (!navOpen) return;
    const onDown = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!navRef.current?.contains(target) && !toggleRef.current?.contains(target)) setNavOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setNavOpen(false);
      toggleRef.current?.focus();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [navOpen]);

  const status = useAtomValue(userStatusAtom);
  const fetchFailed = useAtomValue(userFetchFailedAtom);
  const identified = signedIn && hasIdentity(user);
  // Signed in but the record is not known yet: show neither Connect nor the player block.
  const pending = signedIn && !user && (status === 'unknown' || status === 'loading');
  // The first-time username dialog cannot be closed, so it is offered only to a player /auth/me
  // has vouched for; after a failed fetch (not authenticated, spec §4) Connect is the main login.
  const onConnect = () => openModal(signedIn && status === 'authenticated' ? 'accountDetails' : 'main');
  const onMiner = (e: React.MouseEvent) => {
    if (!signedIn) {
      e.preventDefault();
      openModal('notAuthorizedMiner');
    }
  };
  const onLogout = () => void logout();

  return (
    <header className={`site-header ${fadeClass(next)}`.trim()}>
      <div className="site-header__inner">
        <Link to="/" className="brand" aria-label={t('brandHome')}>
          <PixelLogo />
          <span className="brand__name">{t('brand')}</span>
        </Link>

        {/* Shown under 1250 px by header.css, like the narrow menu itself: the prerendered landing
            has the narrow layout before the app runs. */}
        <button
          ref={toggleRef}
          type="button"
          className="nav-toggle"
          aria-expanded={navOpen}
          aria-controls={navId}
          onClick={() => setNavOpen((o) => !o)}
        >
          <span className="nav-toggle__bars" aria-hidden="true" />
          <span className="visually-hidden">{t('nav.menu')}</span>
        </button>

        <nav
          ref={navRef}
          id={navId}
          className={`site-nav${navOpen ? ' site-nav--open' : ''}`}
          aria-label={t('nav.main')}
        >
          <NavEntry className="nav-entry" to="/miner" onClick={onMiner}>
            {t('nav.miner')}
          </NavEntry>
          <NavEntry className="nav-entry" to="/blog">
            {t('nav.blog')}
          </NavEntry>
          <DisabledEntry label={t('nav.shop')} />
          <DisabledEntry label={t('nav.whitePaper')} />
          <DisabledEntry label={t('nav.staking')} />
          {narrow && identified && user && (
            <>
              <GameEntries className="nav-entry" nav />
              <AccountEntries className="nav-entry" nav ico={Boolean(user.ico)} />
            </>
          )}
        </nav>

        <div className="site-header__right">
          {signedIn && fetchFailed && (
            <span className="header-warning" role="status">
              {t('errors:requestError')}
            </span>
          )}
          {signedIn && user?.language && <LanguageSwitcher />}
          {!identified && !pending && (
            <Button className="connect-button" onClick={onConnect}>
              {t('header.connect')}
            </Button>
          )}
          {identified && user && (
            <Suspense fallback={null}>
              <PlayerMenu user={user} narrow={narrow} onLogout={onLogout} onOpen={() => setNavOpen(false)} />
            </Suspense>
          )}
        </div>
      </div>
    </header>
  );
}
