// /ico (players with the ico flag): the token sale's stage, price, progress and dates, and the
// player's PXT. Buying is not part of the product yet (decisions §9): the page says so and its buy
// button is announced as disabled.
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { useCurrentUser } from '@/lib/current-user';
import { formatLongDate } from '@/lib/date-format';
import { currentLanguage } from '@/lib/i18n';
import { useRefresh } from '@/lib/use-refresh';
import { refreshIco } from '../api/ico-api';
import { formatPxt } from '@/lib/format-pxt';
import { soldPercent } from '../lib/ico-figures';
import { useStoredIco } from '../state/ico-row';
import './ico.css';

export function IcoPage() {
  const { t, i18n } = useTranslation('ico');
  const lang = i18n.resolvedLanguage ?? currentLanguage();
  const ico = useStoredIco();
  const user = useCurrentUser();
  const { state, retry } = useRefresh('ico', refreshIco);
  const hintId = useId();

  useEffect(() => {
    document.title = t('documentTitle');
  }, [t]);

  const number = (n: number, digits = 0) => new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(n);
  const usd = (n: number) =>
    new Intl.NumberFormat(lang, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    }).format(n);
  const date = (iso: string | null) => formatLongDate(iso, lang) ?? t('tba');

  const refused = state.phase === 'failed' && state.failure.status === 403;

  return (
    <div className="ico">
      <header className="ico__head">
        <p className="kicker kicker--pink">{t('kicker')}</p>
        <h1>{t('title')}</h1>
        <p className="ico__lead">{t('lead')}</p>
      </header>

      <div className="ico-notice" role="note">
        <span className="ico-notice__icon" aria-hidden="true">
          !
        </span>
        <div>
          <p className="ico-notice__title">{t('notice.title')}</p>
          <p className="ico-notice__text">{t('notice.text')}</p>
        </div>
      </div>

      {refused && (
        <p className="ico__status" role="status">
          {t('refused')}
        </p>
      )}
      {!refused && !ico && (
        <div className="ico__status">
          {state.phase === 'failed' ? (
            <>
              <p role="status">{t('loadFailed')}</p>
              <Button variant="ghost" onClick={retry}>
                {t('retry')}
              </Button>
            </>
          ) : (
            <Spinner size="lg" label={t('loading')} />
          )}
        </div>
      )}

      {!refused && ico && (
        <>
          {state.phase === 'failed' && (
            <p className="ico__stale" role="status">
              {t('offlineCopy')}
            </p>
          )}
          <dl className="ico-stats">
            <div className="ico-stat ico-stat--stage">
              <dt>{t('stats.stage')}</dt>
              <dd data-testid="ico-stage">{t('stats.stageValue', { stage: ico.stage })}</dd>
            </div>
            <div className="ico-stat">
              <dt>{t('stats.price')}</dt>
              <dd>{t('stats.priceValue', { price: usd(ico.price_usd) })}</dd>
            </div>
            <div className="ico-stat">
              <dt>{t('stats.starts')}</dt>
              <dd>{date(ico.starts_at)}</dd>
            </div>
            <div className="ico-stat">
              <dt>{t('stats.ends')}</dt>
              <dd>{date(ico.ends_at)}</dd>
            </div>
          </dl>

          <section className="ico-progress" aria-labelledby="ico-progress-title">
            <div className="ico-progress__top">
              <h2 id="ico-progress-title">{t('progress.title')}</h2>
              <p className="ico-progress__percent">
                {t('progress.percent', { percent: number(soldPercent(ico.tokens_sold, ico.tokens_total), 2) })}
              </p>
            </div>
            <div
              className="ico-progress__bar"
              role="progressbar"
              aria-labelledby="ico-progress-title"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={soldPercent(ico.tokens_sold, ico.tokens_total)}
              aria-valuetext={t('progress.sold', { sold: number(ico.tokens_sold), total: number(ico.tokens_total) })}
            >
              <span
                className="ico-progress__fill"
                style={{ width: `${soldPercent(ico.tokens_sold, ico.tokens_total)}%` }}
              />
            </div>
            <p className="ico-progress__caption">
              {t('progress.sold', { sold: number(ico.tokens_sold), total: number(ico.tokens_total) })}
            </p>
          </section>
        </>
      )}

      <section className="ico-player" aria-labelledby="ico-player-title">
        <div>
          <h2 id="ico-player-title">{t('player.title')}</h2>
          <p className="ico-player__pxt" data-testid="ico-player-pxt">
            {t('player.pxt', { amount: user ? formatPxt(user.token, lang) : '—' })}
          </p>
        </div>
        <div className="ico-player__buy">
          <Button
            dim
            aria-disabled="true"
            aria-describedby={hintId}
            onClick={(e) => e.preventDefault()}
            className="ico-player__button"
          >
            {t('player.buy')}
          </Button>
          <p id={hintId} className="ico-player__hint">
            {t('player.buyHint')}
          </p>
        </div>
      </section>
    </div>
  );
}
