// /miner: the running session (live countdown to ends_at, what it has mined and will pay), Start and
// Claim, the rate and its boosts, the Auto Miner, the balances and the guide. Everything is read
// from Dexie, so a reload or a lost connection keeps the countdown going; the network refreshes it.
// A sign-in that expires here (a 401 after the token renewal) brings the not-authorized prompt.
import { atom, useAtomValue } from 'jotai';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MINING_SESSION_SECONDS_DEFAULT, REFERRAL_BOOST_PERCENT, TEMP_BOOST_HOURS } from '@shared/constants';
import type { MiningSession } from '@shared/api/mining';
import { ratePerHour } from '@shared/mining-math';
import { Button } from '@/components/button';
import { CardSlot } from '@/components/card-slot';
import { ReferralBoostHint } from '@/components/referral-boost-hint';
import { Spinner } from '@/components/spinner';
import { useAppConfig } from '@/lib/app-config';
import { useCurrentUser } from '@/lib/current-user';
import { modalStateAtom, openModal } from '@/lib/modal-state';
import { guideDueAtom, takeGuideDue } from '@/lib/new-player-guide';
import { store } from '@/lib/store';
import { OUTBOX_PATHS } from '../api/mining-api';
import { formatPxt } from '@/lib/format-pxt';
import { telegramHaptic } from '@/lib/telegram-haptic';
import { formatCountdown, formatDateTime } from '../lib/format';
import { miningFailure, promptIfSignedOut } from '../lib/mining-errors';
import {
  activeBoost,
  autoMinerUntil,
  currentRate,
  currentSession,
  earnedSoFar,
  lastClaimed,
  minerStatus,
  progress,
  remainingMs,
  selectedBoostsPay,
} from '../lib/session-view';
import { subscriptionsState } from '../state/assets-state';
import type { ReplaySummary } from '@/lib/outbox';
import { useNow, useOnline, useRefreshAfterReplay } from '../state/hooks';
import { useRefreshWhenEnded } from '../state/refresh-when-ended';
import { balanceNow, claim, refreshMiner, start } from '../state/mining-actions';
import { pendingCall, tempBoostStock, useMinerData } from '../state/mining-data';
import { Balances } from './balances';
import { NoticeLine, type Notice } from './notice-line';
import { RewardMoment, type Reward } from './reward-moment';
import { RigArt } from './rig-art';
import { MiningPageHead, MiningPageNotices } from './mining-page-head';
import { OrderOutcome } from './order-outcome';
import { MinerAutoCard } from './miner-auto-card';
import { MinerRateCard } from './miner-rate-card';
import './mining.css';

/** The Auto Miner list's error alone: its loading flags changing need no render of the page. */
const subscriptionsErrorAtom = atom((get) => get(subscriptionsState.atom).list.error);

export function MinerPage() {
  const { t, i18n } = useTranslation('mining');
  const lang = i18n.language;
  const now = useNow();
  const config = useAppConfig();
  // One query for all of it: the page renders once when the stored state is read.
  const data = useMinerData();
  const stored = data?.stored;
  const sessions = stored?.sessions;
  const summary = data?.summary;
  const boostRows = data?.boostRows;
  const subscriptions = data?.subscriptions;
  const outbox = data?.outbox;
  const [busy, setBusy] = useState<'start' | 'claim' | null>(null);
  const [notice, setNotice] = useState<Notice>(null);
  const [reward, setReward] = useState<Reward | null>(null);
  const user = useCurrentUser();
  const [loadErrors, setLoadErrors] = useState<string[]>([]);
  const [unanswered, setUnanswered] = useState({ sessions: false, boosts: false });
  const online = useOnline();
  const subscriptionsError = useAtomValue(subscriptionsErrorAtom);
  // 'Failed to load subscriptions' (spec §8); offline, the offline line says it once.
  const errors = useMemo(
    () => (online && subscriptionsError ? [...loadErrors, subscriptionsError] : loadErrors),
    [online, subscriptionsError, loadErrors],
  );

  useEffect(() => {
    document.title = `${t('miner.title')} · ${t('common:appTitle')}`;
  }, [t]);

  const show = useCallback(
    async (r: ReturnType<typeof refreshMiner>) => {
      // The Auto Miner periods keep their own loading and error (subscriptionsState, spec §4).
      const [sessionsResult, boostsResult] = await Promise.allSettled([
        r.sessions,
        r.boosts,
        subscriptionsState.loadList(() => r.subscriptions),
        r.user,
      ]);
      const errors: string[] = [];
      for (const [result, call] of [
        [sessionsResult, 'sessions'],
        [boostsResult, 'boosts'],
      ] as const) {
        if (result.status !== 'rejected') continue;
        const f = miningFailure(result.reason, call, t);
        promptIfSignedOut(f);
        // Offline is said once, by the offline line; the stored state stays on screen.
        if (!f.network) errors.push(f.text);
      }
      setLoadErrors(errors);
      setUnanswered({ sessions: sessionsResult.status === 'rejected', boosts: boostsResult.status === 'rejected' });
    },
    [t],
  );
  const load = useCallback(() => show(refreshMiner()), [show]);

  useEffect(() => {
    void show(refreshMiner(true));
  }, [show]);
  useRefreshAfterReplay(load);

  // Issue 24: a claim queued offline and paid on reconnect gets the same reward moment as one made
  // online, saying it was sent while offline; it counts into the balance the server has then.
  const tokenBefore = useRef(user?.token ?? 0);
  tokenBefore.current = user?.token ?? 0;
  const rigRef = useRef<HTMLElement>(null);
  useRefreshAfterReplay(
    useCallback((summary: ReplaySummary) => {
      const paid = summary.answers.find((a) => a.path === OUTBOX_PATHS.claim)?.data as MiningSession | undefined;
      if (!paid || typeof paid.reward !== 'number') return;
      setNotice(null);
      void balanceNow(tokenBefore.current + paid.reward).then((balanceAfter) => {
        setReward({ amount: paid.reward, balanceAfter, sentOffline: true });
        showRig(rigRef.current);
      });
    }, []),
  );
  useEffect(() => subscriptionsState.clearDetail, []);

  const session = sessions ? currentSession(sessions) : null;
  const status = minerStatus(session, now);
  const autoUntil = subscriptions ? autoMinerUntil(subscriptions, now) : null;

  useRefreshWhenEnded(status, autoUntil !== null, load);

  const pendingClaim = pendingCall(outbox, OUTBOX_PATHS.claim);
  const pendingStart = pendingCall(outbox, OUTBOX_PATHS.start);

  const onStart = async () => {
    setBusy('start');
    setNotice(null);
    setReward(null);
    try {
      const r = await start();
      setNotice(r.kind === 'queued' ? null : { kind: 'ok', text: t('miner.started') });
    } catch (err) {
      const f = miningFailure(err, 'start', t);
      promptIfSignedOut(f);
      setNotice({ kind: 'error', text: f.text });
      void load();
    } finally {
      setBusy(null);
    }
  };

  const onClaim = async () => {
    setBusy('claim');
    setNotice(null);
    setReward(null);
    const balanceBefore = user?.token ?? 0;
    try {
      const r = await claim(balanceBefore);
      if (r.kind !== 'queued') {
        // The rig's burst plays where the player sees it (issue 24: on a phone it played off screen).
        showRig(rigRef.current);
        setReward({ amount: r.data.reward, balanceAfter: r.data.balanceAfter });
        telegramHaptic('success');
      }
    } catch (err) {
      const f = miningFailure(err, 'claim', t);
      promptIfSignedOut(f);
      setNotice({ kind: 'error', text: f.text });
      void load();
    } finally {
      setBusy(null);
    }
  };

  const sessionSeconds = config?.mining_session_seconds ?? MINING_SESSION_SECONDS_DEFAULT;
  const idleRate = ratePerHour((summary?.task_total_boost ?? 0) + (summary?.referral_total_boost ?? 0));
  const rate = currentRate(session, now, idleRate);
  const boost = activeBoost(session, now);
  const previous = sessions ? lastClaimed(sessions) : null;
  // Boosts selected for the next session (issue 24: they showed nowhere on the miner).
  const selected = useMemo(
    () => tempBoostStock(boostRows ?? [], TEMP_BOOST_HOURS).filter((row) => row.selected > 0),
    [boostRows],
  );
  const selectedSeconds = (boostRows ?? [])
    .filter((r) => r.boost_type === 'temporary' && r.is_selected && !r.is_active)
    .sort((a, b) => a.boostId - b.boostId)
    .map((r) => ({ seconds: r.duration_seconds ?? 0, value: r.value }));
  // What a session started now pays, the boosts selected for it counted: the card and the reward moment say the same.
  const nextSessionPays = selectedBoostsPay(summaryPercent(summary), sessionSeconds, selectedSeconds);

  // With nothing stored on this device yet, the page waits for the server's answers (or their
  // failure) instead of drawing an idle miner that the running session then pushes apart (issue
  // 14: layout shift 0.054 on a phone). Known data shows at once, offline too.
  const waiting =
    !stored ||
    summary === undefined ||
    (!stored.known && !unanswered.sessions) ||
    (summary === null && !unanswered.boosts);
  const shown = !waiting && sessions !== undefined;

  // A new player's first visit (account-details-modal.tsx) opens with the guide, over the page it
  // explains; its last step starts the session.
  const guideDue = useAtomValue(guideDueAtom);
  useEffect(() => {
    if (shown && !store.get(modalStateAtom).open && takeGuideDue()) openModal('guide');
  }, [shown, guideDue]);

  if (!shown) {
    return (
      <div className="mining-page mining-page--loading">
        <Spinner size="lg" label={t('miner.loading')} />
        {/* The app's cards wait here while the page loads: in the dock above the page, then moved
            into its slot once loaded, they pulled the whole page up (a layout shift of 0.078 on a
            slow phone, where loading outlasts the 500 ms after the tap that CLS forgives). */}
        <CardSlot className="mining-card-slot" />
      </div>
    );
  }

  return (
    <div className="mining-page">
      <MinerHead />
      <MemoNotices errors={errors} outbox={outbox} />
      <MemoOrderOutcome />
      <MemoReferralBoostHint waiting={summary?.referral_waiting ?? 0} percent={REFERRAL_BOOST_PERCENT} />

      <div className="mining-grid">
        <section
          ref={rigRef}
          className={`mining-card mining-rig mining-rig--${status}`}
          aria-labelledby="mining-rig-title"
        >
          <RigArt celebrate={Boolean(reward)} working={status === 'running'} />
          <div className="mining-rig__top">
            <h2 id="mining-rig-title" className="mining-card__title">
              {t('miner.session')}
            </h2>
            <span className={`mining-badge mining-badge--${status}`} data-testid="miner-status">
              {t(`miner.status.${status}`)}
            </span>
          </div>

          <p className="mining-rig__label" id="mining-countdown-label">
            {t('miner.countdownLabel')}
          </p>
          <p
            className="mining-rig__countdown"
            role="timer"
            aria-labelledby="mining-countdown-label"
            data-testid="countdown"
          >
            {session ? formatCountdown(remainingMs(session, now)) : formatCountdown(sessionSeconds * 1000)}
          </p>
          <div
            className="mining-progress"
            role="progressbar"
            aria-label={t('miner.progress')}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={session ? Math.round(progress(session, now) * 100) : 0}
          >
            <span style={{ width: `${session ? progress(session, now) * 100 : 0}%` }} />
          </div>
          {!session && selected.length > 0 && (
            <p className="mining-hint" data-testid="selected-boost-hint">
              {t('miner.withSelected', {
                hours: selected.map((row) => t('boostSelect.hours', { hours: row.hours })).join(', '),
              })}
            </p>
          )}
          {session && (
            <p className="mining-rig__ends">{t('miner.endsAt', { time: formatDateTime(session.ends_at, lang) })}</p>
          )}

          <dl className="mining-figures">
            {session ? (
              <>
                <div>
                  <dt>{t('miner.earned')}</dt>
                  <dd data-testid="session-earned">
                    {t('pxt', { amount: formatPxt(earnedSoFar(session, now), lang) })}
                  </dd>
                </div>
                <div>
                  <dt>{t('miner.pays')}</dt>
                  <dd data-testid="session-pays">{t('pxt', { amount: formatPxt(session.reward, lang) })}</dd>
                </div>
              </>
            ) : (
              <div>
                <dt>{t('miner.wouldPay')}</dt>
                <dd data-testid="session-would-pay">{t('pxt', { amount: formatPxt(nextSessionPays, lang) })}</dd>
              </div>
            )}
          </dl>

          <div className="mining-rig__actions">
            {status === 'idle' ? (
              <Button block onClick={onStart} loading={busy === 'start'} disabled={Boolean(pendingStart)}>
                {pendingStart ? t('miner.pending.start') : t('miner.start')}
              </Button>
            ) : (
              <Button
                block
                onClick={onClaim}
                loading={busy === 'claim'}
                disabled={status !== 'ready' || Boolean(pendingClaim)}
              >
                {pendingClaim ? t('miner.pending.claim') : t('miner.claim')}
              </Button>
            )}
            {status === 'running' && !pendingClaim && <p className="mining-hint">{t('miner.claimWhenDone')}</p>}
            {(pendingClaim || pendingStart) && (
              <p className="mining-hint" data-testid="claim-pending-hint">
                {t('miner.pending.hint')}
              </p>
            )}
          </div>
          <NoticeLine notice={notice} />
          {reward && <RewardMoment reward={reward} rate={idleRate} nextPays={nextSessionPays} />}
          {previous && status === 'idle' && !reward && (
            <p className="mining-hint">{t('miner.lastPaid', { amount: formatPxt(previous.reward, lang) })}</p>
          )}
        </section>
        <CardSlot className="mining-card-slot" />

        <MinerRateCard
          rate={rate}
          summary={summary ?? null}
          boost={boost}
          selected={selected}
          status={status}
          session={session}
        />

        <MemoBalances />

        <MinerAutoCard activeUntil={autoUntil?.getTime() ?? null} subscriptions={subscriptions ?? []} />
      </div>
    </div>
  );
}

// The parts of the page that do not follow the clock, kept out of its every-second render.
const MinerHead = memo(function MinerHead() {
  const { t } = useTranslation('mining');
  return (
    <MiningPageHead
      kicker={t('miner.kicker')}
      title={t('miner.title')}
      actions={
        <Button variant="ghost" onClick={() => openModal('guide')}>
          {t('miner.guide')}
        </Button>
      }
    />
  );
});
const MemoNotices = memo(MiningPageNotices);
const MemoOrderOutcome = memo(OrderOutcome);
const MemoReferralBoostHint = memo(ReferralBoostHint);
const MemoBalances = memo(Balances);

const summaryPercent = (summary: { task_total_boost: number; referral_total_boost: number } | null | undefined) =>
  (summary?.task_total_boost ?? 0) + (summary?.referral_total_boost ?? 0);

/** Brings the session card's rig into view (smoothly unless the player asked for reduced motion). */
function showRig(el: HTMLElement | null) {
  if (!el) return;
  const rect = el.getBoundingClientRect();
  if (rect.top >= 0 && rect.top < window.innerHeight / 3) return;
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  el.scrollIntoView({ block: 'start', behavior: still ? 'auto' : 'smooth' });
}
