import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { shortWallet } from '@shared/validation';
import type { MeRecord } from '@/lib/db';
import { AccountEntries, GameEntries } from './menu-entries';

interface Props {
  user: MeRecord;
  narrow: boolean;
  onLogout: () => void;
  /** Called as the menu opens: the header closes its phone menu (one menu at a time). */
  onOpen?: () => void;
}

/**
 * The player block and its menu (spec §2). Wide: opens on hover or click, with the Game and Account
 * groups. Narrow (< 1250 px): opens on click and shows username, short wallet and log out.
 */
export function PlayerMenu({ user, narrow, onLogout, onOpen }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // Opened by hovering, a click pins it open instead of closing it again.
  const [pinned, setPinned] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { pathname } = useLocation();
  const wallet = user.wallet_address ? shortWallet(user.wallet_address) : t('header.walletNotLinked');
  const name = user.username ?? t('header.noUsername');

  const close = () => {
    setOpen(false);
    setPinned(false);
  };
  useEffect(close, [pathname]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const show = () => {
    setOpen(true);
    onOpen?.();
  };
  const hover = narrow ? {} : { onMouseEnter: show, onMouseLeave: () => !pinned && setOpen(false) };
  const onClick = () => {
    if (open && !pinned && !narrow) return setPinned(true);
    if (open) return close();
    show();
    setPinned(true);
  };

  return (
    <div className={`player${open ? ' player--open' : ''}`} ref={root} {...hover}>
      <button
        type="button"
        className="player__block"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={onClick}
        data-testid="player-block"
      >
        <span className="player__avatar" aria-hidden="true" />
        <span className="player__ids">
          <span className="player__name">{name}</span>
          <span className="player__wallet">{wallet}</span>
        </span>
        <span className="player__caret" aria-hidden="true" />
      </button>
      <div id={menuId} className="player__menu" hidden={!open}>
        {narrow ? (
          <div className="player__compact">
            <p className="player__name">{name}</p>
            <p className="player__wallet">{wallet}</p>
            <button type="button" className="player__logout" onClick={onLogout}>
              {t('nav.logout')}
            </button>
          </div>
        ) : (
          <>
            <nav className="player__group" aria-label={t('nav.game')}>
              <p className="player__group-title">{t('nav.game')}</p>
              <GameEntries className="menu-entry" />
            </nav>
            <nav className="player__group" aria-label={t('nav.account')}>
              <p className="player__group-title">{t('nav.account')}</p>
              <AccountEntries className="menu-entry" ico={Boolean(user.ico)} />
              <button type="button" className="menu-entry player__logout" onClick={onLogout}>
                {t('nav.logout')}
              </button>
            </nav>
          </>
        )}
      </div>
    </div>
  );
}
