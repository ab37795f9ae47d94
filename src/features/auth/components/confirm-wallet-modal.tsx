import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WALLET_AUTOSTART_MS, WALLET_RETRY_MS } from '@shared/constants';
import { Button } from '@/components/button';
import { Modal } from '@/components/modal';
import { Spinner } from '@/components/spinner';
import { loadAppConfig } from '@/lib/app-config';
import { backModal, closeModal, switchModal, useModalState } from '@/lib/modal-state';
import { ReauthCancelled } from '@/lib/reauth';
import { isSignedIn } from '@/lib/session';
import { authFailure } from '../lib/auth-failure';
import {
  chooseWallet,
  discoverWallets,
  injectedProvider,
  isMobileDevice,
  isUserRejection,
  metamaskDeepLink,
  metamaskSdkProvider,
  METAMASK_DOWNLOAD_URL,
  type Eip1193Provider,
  type WalletChoice,
} from '@/lib/wallet';
import { walletSignIn } from '../lib/wallet-flow';
import './auth-modals.css';

type Phase = 'starting' | 'choose' | 'waiting' | 'rejected' | 'notInstalled' | 'redirecting' | 'failed';

/**
 * Awaiting wallet confirmation (spec §2, §4): starts by itself after 500 ms, retries 1 s after a
 * refusal. With several wallets announcing themselves (EIP-6963) the player first picks one.
 */
export default function ConfirmWalletModal() {
  const { t } = useTranslation('auth');
  const { previous } = useModalState();
  const [phase, setPhase] = useState<Phase>('starting');
  const [error, setError] = useState<string | null>(null);
  const [wallets, setWallets] = useState<WalletChoice[]>([]);
  const alive = useRef(true);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const run = useCallback(
    async (provider: Eip1193Provider) => {
      setPhase('waiting');
      setError(null);
      try {
        const outcome = await walletSignIn(provider);
        if (!alive.current) return;
        if (outcome === 'needsUsername') switchModal('accountDetails');
        else closeModal();
      } catch (err) {
        if (!alive.current) return;
        // The player closed "Confirm it is you": nothing was linked, the dialog goes too.
        if (err instanceof ReauthCancelled) {
          closeModal();
          return;
        }
        if (isUserRejection(err)) {
          setPhase('rejected');
          timer.current = setTimeout(() => alive.current && void run(provider), WALLET_RETRY_MS);
          return;
        }
        const fallback = isSignedIn() ? t('errors:auth.bindWallet') : t('errors:auth.walletLogin');
        const f = authFailure(err, fallback);
        // A wallet's own error (no answer of ours) is English whatever the interface: our words instead.
        setError(f.status > 0 ? f.message : fallback);
        setPhase('failed');
      }
    },
    [t],
  );

  const start = useCallback(async () => {
    setPhase('starting');
    setError(null);
    const found = await discoverWallets();
    if (!alive.current) return;
    if (found.length > 1) {
      setWallets(found);
      setPhase('choose');
      return;
    }
    if (found[0]) chooseWallet(found[0]);
    // window.ethereum only when no wallet announced itself.
    const provider = found[0]?.provider ?? injectedProvider();
    if (provider) return run(provider);
    if (isMobileDevice()) {
      setPhase('redirecting');
      window.location.href = metamaskDeepLink();
      return;
    }
    setPhase('notInstalled');
  }, [run]);

  const pick = (wallet: WalletChoice) => {
    chooseWallet(wallet);
    void run(wallet.provider);
  };

  const connectWithSdk = async () => {
    setPhase('starting');
    try {
      const config = await loadAppConfig();
      const provider = await metamaskSdkProvider(config.app_name);
      if (alive.current) await run(provider);
    } catch (err) {
      if (!alive.current) return;
      // The SDK's own messages are English only.
      console.warn('MetaMask SDK failed', err);
      setError(t('errors:auth.walletLogin'));
      setPhase('failed');
    }
  };

  useEffect(() => {
    alive.current = true;
    timer.current = setTimeout(() => void start(), WALLET_AUTOSTART_MS);
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, [start]);

  const busy = phase === 'starting' || phase === 'waiting' || phase === 'rejected' || phase === 'redirecting';
  const status =
    phase === 'rejected'
      ? t('confirmWallet.rejected')
      : phase === 'redirecting'
        ? t('confirmWallet.redirecting')
        : t('confirmWallet.waiting');

  return (
    <Modal title={t('confirmWallet.title')} onClose={closeModal} onBack={previous ? backModal : undefined}>
      <div className="auth-wallet-status">
        <WalletArt />
        {phase !== 'notInstalled' && <p>{t(phase === 'choose' ? 'confirmWallet.choose' : 'confirmWallet.text')}</p>}
        {phase === 'choose' && (
          <ul className="auth-wallet-list" aria-label={t('confirmWallet.wallets')}>
            {wallets.map((w) => (
              <li key={w.uuid || w.rdns || w.name}>
                <Button
                  block
                  variant="secondary"
                  onClick={() => pick(w)}
                  icon={w.icon ? <img src={w.icon} alt="" width={24} height={24} /> : undefined}
                >
                  {w.name}
                </Button>
              </li>
            ))}
          </ul>
        )}
        {busy && (
          <p role="status" aria-live="polite">
            <Spinner size="sm" /> {status}
          </p>
        )}
        {phase === 'notInstalled' && (
          <>
            <p className="modal-error" role="alert">
              {t('confirmWallet.notInstalled')}
            </p>
            <div className="modal-actions" style={{ width: '100%' }}>
              <a
                className="btn btn--primary btn--block"
                href={METAMASK_DOWNLOAD_URL}
                target="_blank"
                rel="noopener noreferrer"
              >
                {t('confirmWallet.install')}
              </a>
              <Button block variant="ghost" onClick={() => void connectWithSdk()}>
                {t('confirmWallet.useMobile')}
              </Button>
            </div>
          </>
        )}
        {phase === 'failed' && (
          <>
            {error && (
              <p className="modal-error" role="alert">
                {error}
              </p>
            )}
            <Button block onClick={() => void start()}>
              {t('confirmWallet.retry')}
            </Button>
          </>
        )}
      </div>
    </Modal>
  );
}

function WalletArt() {
  return (
    <svg className="auth-big-icon" viewBox="0 0 16 16" shapeRendering="crispEdges" aria-hidden="true">
      <path fill="#ff2bd6" d="M2 4h12v1H2zM1 5h1v8H1zM14 5h1v8h-1zM2 13h12v1H2z" />
      <path fill="#24163d" d="M2 5h12v8H2z" />
      <path fill="#00f0ff" d="M9 7h6v4H9z" />
      <path fill="#0b0714" d="M11 8h2v2h-2z" />
      <path fill="#b6ff00" d="M3 2h8v2H3z" />
    </svg>
  );
}
