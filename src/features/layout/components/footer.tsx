import { useAtomValue } from 'jotai';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { hasIdentity, useCurrentUser } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { signedInAtom } from '@/lib/session';
import { CONTACT_EMAIL, MAKER_URL, SOCIAL_LINKS } from '@/lib/social-links';
import { PixelLogo } from './pixel-logo';
import './footer.css';

const ACCOUNT_LINKS = [
  { to: '/tasks', key: 'nav.tasks' },
  { to: '/referrals', key: 'nav.referrals' },
  { to: '/arcade', key: 'nav.arcade' },
] as const;

export function Footer() {
  const { t } = useTranslation();
  const signedIn = useAtomValue(signedInAtom);
  const user = useCurrentUser();
  // Spec §2: these look disabled while the player has neither username nor wallet.
  const locked = !(signedIn && hasIdentity(user));

  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <div className="site-footer__brand">
          <PixelLogo size={40} />
          <p>{t('footer.tagline')}</p>
        </div>
        <nav className="site-footer__col" aria-label={t('footer.play')}>
          <h2>{t('footer.play')}</h2>
          {ACCOUNT_LINKS.map((l) =>
            locked ? (
              <Link
                key={l.to}
                to={l.to}
                className="footer-link footer-link--disabled"
                aria-disabled="true"
                title={t('footer.needAccount')}
                onClick={(e) => {
                  e.preventDefault();
                  openModal('main');
                }}
              >
                {t(l.key)}
              </Link>
            ) : (
              <Link key={l.to} to={l.to} className="footer-link">
                {t(l.key)}
              </Link>
            ),
          )}
          <Link to="/blog" className="footer-link">
            {t('nav.blog')}
          </Link>
        </nav>
        <nav className="site-footer__col" aria-label={t('footer.community')}>
          <h2>{t('footer.community')}</h2>
          <a className="footer-link" href={SOCIAL_LINKS.telegram_ru} target="_blank" rel="noopener noreferrer">
            {t('footer.telegramRu')}
          </a>
          <a className="footer-link" href={SOCIAL_LINKS.telegram_eng} target="_blank" rel="noopener noreferrer">
            {t('footer.telegramEng')}
          </a>
          <a className="footer-link" href={SOCIAL_LINKS.discord} target="_blank" rel="noopener noreferrer">
            {t('footer.discord')}
          </a>
        </nav>
        <div className="site-footer__col">
          <h2>{t('footer.contact')}</h2>
          <a className="footer-link" href={`mailto:${CONTACT_EMAIL}`}>
            {CONTACT_EMAIL}
          </a>
          <Link to="/privacy" className="footer-link">
            {t('legal.privacy')}
          </Link>
          <Link to="/terms" className="footer-link">
            {t('legal.terms')}
          </Link>
        </div>
      </div>
      <p className="site-footer__credit">
        {t('footer.madeBy')}{' '}
        <a href={MAKER_URL} target="_blank" rel="noopener noreferrer">
          {t('footer.maker')}
        </a>
      </p>
    </footer>
  );
}
