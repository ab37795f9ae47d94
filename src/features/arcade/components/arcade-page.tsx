// /arcade (signed in): the active season — time left, the XP bar, the 30-tier reward track with
// claims — from the stored copy (Dexie `season`) that the network refreshes.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SeasonJson } from '@shared/api/arcade';
import { XP_PER_MINING_CLAIM, XP_PER_QUEST_COIN } from '@shared/season';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { useCurrentUser } from '@/lib/current-user';
import { dateLocale, formatLongDate } from '@/lib/date-format';
import { currentLanguage } from '@/lib/i18n';
import { onOutboxReplayed } from '@/lib/outbox';
import { useRefresh } from '@/lib/use-refresh';
import { claimTier, CLAIM_PATH, refreshSeason } from '../api/season-api';
import { formatTimeLeft, tierProgress } from '../lib/season-progress';
import { seasonNumber } from '../lib/season-title';
import { usePendingClaims } from '../state/pending-claims';
import { useStoredSeason } from '../state/season-row';
import { useNow } from '../state/use-now';
import { TierTrack } from './tier-track';
import { XpBar } from './xp-bar';
import './arcade.css';

type Notice = { kind: 'ok' | 'error'; text: string } | null;

export function ArcadePage() {
  const { t } = useTranslation('arcade');
  const season = useStoredSeason();
  const { state, retry } = useRefresh('season', refreshSeason);

  useEffect(() => {
    document.title = t('documentTitle');
  }, [t]);

  // A claim queued offline was just sent (or refused): show the season it left (the app's outbox
  // sync refreshes the balances).
  useEffect(
    () =>
      onOutboxReplayed((summary) => {
        if (summary.failed > 0 || summary.sentPaths.includes(CLAIM_PATH)) void refreshSeason().catch(() => undefined);
      }),
    [],
  );

  let body: React.ReactNode;
  if (season === undefined || (season === 'unknown' && state.phase === 'loading')) {
    body = (
      <div className="arcade__status">
        <Spinner size="lg" label={t('loading')} />
      </div>
    );
  } else if (season === 'unknown') {
    body = (
      <div className="arcade__status" role="status">
        <p>{t('loadFailed')}</p>
        <Button variant="ghost" onClick={retry}>
          {t('retry')}
        </Button>
      </div>
    );
  } else if (season === null) {
    body = <NoSeason />;
  } else {
    body = <SeasonView season={season} stale={state.phase === 'failed'} />;
  }

  return (
    <div className="arcade">
      {body}
      <HowToEarn />
    </div>
  );
}

function NoSeason() {
  const { t } = useTranslation('arcade');
  return (
    <section className="arcade-hero arcade-hero--empty" aria-labelledby="arcade-title">
      <p className="kicker">{t('kicker')}</p>
      <h1 id="arcade-title">{t('none.title')}</h1>
      <p className="arcade__lead">{t('none.text')}</p>
    </section>
  );
}

function SeasonView({ season, stale }: { season: SeasonJson; stale: boolean }) {
  const { t, i18n } = useTranslation('arcade');
  const lang = i18n.resolvedLanguage ?? currentLanguage();
  const user = useCurrentUser();
  const now = useNow();
  const [claiming, setClaiming] = useState<number | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const pending = usePendingClaims();

  const progress = tierProgress(season.xp, season.xp_per_tier, season.tiers.length);
  const timeLeft = formatTimeLeft(season.ends_at, now, dateLocale(lang));
  const claimableTiers = season.tiers.filter((x) => x.claimable && !pending.has(x.tier)).map((x) => x.tier);
  const claimable = claimableTiers.length;

  const onClaim = async (tier: number) => {
    setClaiming(tier);
    setNotice(null);
    try {
      const result = await claimTier(tier);
      setNotice(
        result.status === 'sent'
          ? { kind: 'ok', text: t('claim.done', { tier }) }
          : { kind: 'ok', text: t('claim.queued', { tier }) },
      );
    } catch (err) {
      const failure = toApiFailure(err, t('claim.failed'));
      const text =
        failure.status === 0
          ? t('claim.offline')
          : failure.code === 'tier_already_claimed'
            ? t('claim.already')
            : failure.code === 'tier_not_reached'
              ? t('claim.notReached')
              : failure.message;
      setNotice({ kind: 'error', text });
      // The stored season may be behind the server's (a claim from another device): catch up.
      void refreshSeason().catch(() => undefined);
    } finally {
      setClaiming(null);
    }
  };

  // Issue 24: several reached tiers are claimed with one tap, one claim after another (each its own
  // call, so a queued or refused one says which); the first refusal stops the rest.
  const [claimingAll, setClaimingAll] = useState(false);
  const onClaimAll = async () => {
    setClaimingAll(true);
    setNotice(null);
    const sent: number[] = [];
    const queued: number[] = [];
    try {
      for (const tier of claimableTiers) {
        setClaiming(tier);
        const result = await claimTier(tier);
        (result.status === 'sent' ? sent : queued).push(tier);
      }
      setNotice({
        kind: 'ok',
        text: [
          sent.length ? t('claim.allDone', { tiers: sent.join(', ') }) : '',
          queued.length ? t('claim.allQueued', { tiers: queued.join(', ') }) : '',
        ]
          .filter(Boolean)
          .join(' '),
      });
    } catch (err) {
      const failure = toApiFailure(err, t('claim.failed'));
      const done = sent.length ? `${t('claim.allDone', { tiers: sent.join(', ') })} ` : '';
      setNotice({ kind: 'error', text: `${done}${failure.status === 0 ? t('claim.offline') : t('claim.failed')}` });
      void refreshSeason().catch(() => undefined);
    } finally {
      setClaiming(null);
      setClaimingAll(false);
    }
  };

  return (
    <>
      <section className="arcade-hero" aria-labelledby="arcade-title">
        <div className="arcade-hero__copy">
          <p className="kicker">{t('kicker')}</p>
          <h1 id="arcade-title">
            {seasonNumber(season.title) === null
              ? season.title
              : t('numberedTitle', { number: seasonNumber(season.title) })}
          </h1>
          <p className={`arcade__time${timeLeft ? '' : ' arcade__time--over'}`}>
            <span className="arcade__clock" aria-hidden="true" />
            {timeLeft ? t('timeLeft', { time: timeLeft }) : t('ended')}
          </p>
          <p className="arcade__dates">
            {t('dates', { start: formatLongDate(season.starts_at, lang), end: formatLongDate(season.ends_at, lang) })}
          </p>
          {stale && (
            <p className="arcade__stale" role="status">
              {t('offlineCopy')}
            </p>
          )}
        </div>
        <div className="arcade-hero__card">
          <XpBar progress={progress} xp={season.xp} />
          <dl className="arcade__wallet">
            <div>
              <dt>{t('wallet.coins')}</dt>
              <dd data-testid="arcade-coins">{user ? user.balance : '—'}</dd>
            </div>
            <div>
              <dt>{t('wallet.gems')}</dt>
              <dd>{user ? user.gems : '—'}</dd>
            </div>
            <div>
              <dt>{t('wallet.claimable')}</dt>
              <dd>{claimable}</dd>
            </div>
          </dl>
        </div>
      </section>

      <section className="arcade-section" aria-labelledby="tiers-title">
        <div className="arcade-section__head">
          <h2 id="tiers-title">{t('tiers.title')}</h2>
          <p>{t('tiers.lead')}</p>
        </div>
        {(claimable > 1 || claimingAll) && (
          <div className="arcade__claim-all">
            <Button
              loading={claimingAll}
              disabled={claiming !== null && !claimingAll}
              onClick={() => void onClaimAll()}
            >
              {t('claim.all', { count: claimable })}
            </Button>
          </div>
        )}
        <div className="arcade__notice-slot" aria-live="polite">
          {notice && <p className={`arcade__notice arcade__notice--${notice.kind}`}>{notice.text}</p>}
        </div>
        <TierTrack
          tiers={season.tiers}
          nextTier={progress.nextTier}
          pending={pending}
          claiming={claiming}
          onClaim={(tier) => void onClaim(tier)}
        />
      </section>
    </>
  );
}

function HowToEarn() {
  const { t } = useTranslation('arcade');
  return (
    <section className="arcade-section" aria-labelledby="earn-title">
      <div className="arcade-section__head">
        <h2 id="earn-title">{t('earn.title')}</h2>
        <p>{t('earn.lead')}</p>
      </div>
      <ul className="earn">
        <li className="earn__card">
          <p className="earn__xp">{t('earn.miningXp', { xp: XP_PER_MINING_CLAIM })}</p>
          <h3>{t('earn.miningTitle')}</h3>
          <p>{t('earn.miningText')}</p>
          <Link to="/miner" className="earn__link">
            {t('earn.miningLink')}
          </Link>
        </li>
        <li className="earn__card">
          <p className="earn__xp">{t('earn.questsXp', { xp: XP_PER_QUEST_COIN })}</p>
          <h3>{t('earn.questsTitle')}</h3>
          <p>{t('earn.questsText')}</p>
          <Link to="/tasks" className="earn__link">
            {t('earn.questsLink')}
          </Link>
        </li>
      </ul>
    </section>
  );
}
