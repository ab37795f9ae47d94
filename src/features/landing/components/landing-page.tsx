import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import {
  AUTO_MINER_PRICE_GEMS,
  BASE_RATE_PER_HOUR,
  CATEGORY_REWARD_COINS,
  MINING_SESSION_SECONDS_DEFAULT,
  REFERRAL_BOOST_CAP_PERCENT,
  REFERRAL_BOOST_PERCENT,
  TASK_BOOST_PERCENT,
  TEMP_BOOST_VALUE,
  QUEST_COUNT,
} from '@shared/constants';
import { Button } from '@/components/button';
import { openModal } from '@/lib/modal-state';
import { signedInAtom } from '@/lib/session';
import { PixelNoise } from './pixel-noise';
import { PixelRig } from './pixel-rig';
import './landing.css';

const HOURS = MINING_SESSION_SECONDS_DEFAULT / 3600;

/** The main page: what the universe and PXT mining are, and the way in. */
export function LandingPage() {
  const { t } = useTranslation('landing');
  const signedIn = useAtomValue(signedInAtom);
  const navigate = useNavigate();

  useEffect(() => {
    document.title = t('common:appTitle');
  }, [t]);

  const start = () => (signedIn ? void navigate('/miner') : openModal('main'));
  const cta = signedIn ? t('hero.ctaSignedIn') : t('hero.cta');

  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <PixelNoise />
        <div className="hero__grid" aria-hidden="true" />
        <div className="hero__inner">
          <div className="hero__copy">
            <p className="kicker hero__kicker">{t('hero.kicker')}</p>
            <h1 id="hero-title" className="hero__title">
              <span>{t('hero.title')}</span>
              <span className="hero__accent">
                {t('hero.titleAccent')}
                <span className="hero__glitch" aria-hidden="true">
                  {t('hero.titleAccent')}
                </span>
              </span>
            </h1>
            <p className="hero__lead">{t('hero.lead')}</p>
            <div className="hero__actions">
              <Button onClick={start} className="hero__cta" data-testid="landing-cta">
                {cta}
              </Button>
              <a className="btn btn--ghost" href="#how">
                {t('hero.secondary')}
              </a>
            </div>
          </div>
          <PixelRig />
        </div>
        <dl className="stats">
          <div>
            <dt>{t('stats.sessionLabel')}</dt>
            <dd>{t('stats.session', { hours: HOURS })}</dd>
          </div>
          <div>
            <dt>{t('stats.boostLabel')}</dt>
            <dd>{t('stats.boost', { value: TEMP_BOOST_VALUE })}</dd>
          </div>
          <div>
            <dt>{t('stats.referralLabel')}</dt>
            <dd>{t('stats.referral', { percent: REFERRAL_BOOST_PERCENT })}</dd>
          </div>
          <div>
            <dt>{t('stats.questsLabel')}</dt>
            <dd>{t('stats.quests', { count: QUEST_COUNT })}</dd>
          </div>
        </dl>
      </section>

      <section id="how" className="section" aria-labelledby="mining-title">
        <h2 id="mining-title" className="section__title">
          {t('mining.title')}
        </h2>
        <p className="section__lead">{t('mining.text')}</p>
        <ol className="steps">
          <li className="step">
            <span className="step__num" aria-hidden="true">
              01
            </span>
            <h3>{t('mining.step1')}</h3>
            <p>{t('mining.step1Text', { rate: BASE_RATE_PER_HOUR })}</p>
          </li>
          <li className="step">
            <span className="step__num" aria-hidden="true">
              02
            </span>
            <h3>{t('mining.step2', { hours: HOURS })}</h3>
            <p>{t('mining.step2Text')}</p>
          </li>
          <li className="step">
            <span className="step__num" aria-hidden="true">
              03
            </span>
            <h3>{t('mining.step3')}</h3>
            <p>{t('mining.step3Text')}</p>
          </li>
        </ol>
      </section>

      <section className="section" aria-labelledby="loop-title">
        <h2 id="loop-title" className="section__title">
          {t('loop.title')}
        </h2>
        <p className="section__lead">{t('loop.text')}</p>
        <div className="cards">
          <article className="card card--pink">
            <h3>{t('loop.questsTitle')}</h3>
            <p>{t('loop.questsText', { percent: TASK_BOOST_PERCENT, bonus: CATEGORY_REWARD_COINS })}</p>
          </article>
          <article className="card card--cyan">
            <h3>{t('loop.referralsTitle')}</h3>
            <p>{t('loop.referralsText', { percent: REFERRAL_BOOST_PERCENT, cap: REFERRAL_BOOST_CAP_PERCENT })}</p>
          </article>
          <article className="card card--acid">
            <h3>{t('loop.boostsTitle')}</h3>
            <p>{t('loop.boostsText', { value: TEMP_BOOST_VALUE })}</p>
          </article>
          <article className="card card--warn">
            <h3>{t('loop.autoTitle')}</h3>
            <p>{t('loop.autoText', { price: AUTO_MINER_PRICE_GEMS })}</p>
          </article>
        </div>
      </section>

      <section className="section section--split" aria-label={t('season.title')}>
        <article className="panel">
          <h2>{t('season.title')}</h2>
          <p>{t('season.text')}</p>
          <div className="tiers" aria-hidden="true">
            {Array.from({ length: 10 }, (_, i) => (
              <span key={i} className={`tiers__tier${i < 4 ? ' tiers__tier--done' : ''}`} />
            ))}
          </div>
        </article>
        <article className="panel" data-pwa-hint>
          <h2>{t('install.title')}</h2>
          <p>{t('install.text')}</p>
        </article>
      </section>

      <section className="final" aria-labelledby="final-title">
        <h2 id="final-title">{signedIn ? t('final.titleSignedIn') : t('final.title')}</h2>
        <p>{signedIn ? t('final.textSignedIn') : t('final.text')}</p>
        <Button onClick={start}>{cta}</Button>
      </section>
    </div>
  );
}
