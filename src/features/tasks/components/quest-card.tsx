import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Me } from '@shared/api/auth';
import type { SocialRewardResponse } from '@shared/api/tasks';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { currentLanguage } from '@/lib/i18n';
import { type ModalId, openModal } from '@/lib/modal-state';
import { claimReferralAwards, refreshReferrals } from '@/lib/referrals';
import { SOCIAL_LINKS } from '@/lib/social-links';
import {
  checkAccountQuest,
  fetchCompletedTask,
  refreshBetaStatus,
  refreshCompletedTasks,
  rewardSocial,
} from '../api/tasks-api';
import { completedTasksState } from '../state/completed-task-detail';
import type { QuestView } from '../state/quest-list';
import { taskAnswerText, taskFailureText } from '../state/task-text';
import { CompletedTaskDetail } from './completed-task-detail';
import { FollowSteps } from './follow-steps';
import { TaskBoostButton } from './task-boost-button';

interface Props {
  view: QuestView;
  user: Me | undefined;
  boosted: boolean;
  /** A follow the server checks (decisions §14), with whether its account is linked (undefined: not known yet). */
  verifiedFollow?: { linked: boolean | undefined };
}

type Line = { kind: 'ok' | 'error'; text: string } | null;

/** The account quest refusals that the player can fix here, and the modal that fixes each. */
function offerFor(code: string | null, user: Me | undefined): ModalId | null {
  if (code === 'username_not_set') return 'updateUsername';
  if (code === 'wallet_not_added' && !user?.wallet_address) return 'connectWallet';
  if (code === 'email_password_not_confirmed' && !user?.password_set) return 'addEmailPassword';
  return null;
}

/** Everything a paid quest moves: the list, the balance, the beta progress. */
const afterReward = () => Promise.allSettled([refreshCompletedTasks(), refreshCurrentUser(), refreshBetaStatus()]);

/** One quest (spec §3 task fields): title, action text, coins, its button, and the result line. */
export function QuestCard({ view, user, boosted, verifiedFollow }: Props) {
  const { t } = useTranslation('tasks');
  const { def, completed } = view;
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<Line>(null);
  const [offer, setOffer] = useState<ModalId | null>(null);
  const lang = currentLanguage();
  const titleId = `quest-${def.key}`;
  // A player without a wallet is offered the fix, not a check the server can only refuse (issue 24).
  const needsWallet = def.key === 'connect_wallet' && user !== undefined && !user.wallet_address;

  const run = async (call: () => Promise<{ detail: string; code?: string; reward?: number }>) => {
    if (busy) return;
    setBusy(true);
    setLine(null);
    setOffer(null);
    try {
      const answer = await call();
      setLine({ kind: 'ok', text: rewardLine(answer) });
      await afterReward();
    } catch (err) {
      const failure = toApiFailure(err, t('errors.requestFailed'));
      setLine({ kind: 'error', text: taskFailureText(lang, failure, t('errors.requestFailed')) });
      setOffer(offerFor(failure.code, user));
      // Paid before (another tab, another device): show it as done.
      if (failure.code === 'reward_already_granted') await afterReward();
    } finally {
      setBusy(false);
    }
  };

  const rewardLine = (answer: { detail: string; code?: string; reward?: number }) => {
    const text = taskAnswerText(lang, answer);
    return answer.reward ? t('quest.earned', { text, coins: answer.reward }) : text;
  };

  const followPaid = async (answer: SocialRewardResponse | null) => {
    const coins = answer?.rewards.find((r) => r.network === def.network)?.reward;
    if (answer) setLine({ kind: 'ok', text: rewardLine({ ...answer, reward: coins }) });
    await afterReward();
  };

  const claimInvites = () =>
    run(async () => {
      const answer = await claimReferralAwards();
      await refreshReferrals().catch(() => undefined);
      return answer;
    });

  return (
    <li className={`quest${completed ? ' quest--done' : ''}`} aria-labelledby={titleId} data-quest={def.key}>
      <div className="quest__main">
        <h3 id={titleId} className="quest__title">
          {t(`quest.${def.key}.title`)}
        </h3>
        <p className="quest__action">{t(`quest.${def.key}.action`)}</p>
        {view.progress && <Progress count={view.progress.count} target={view.progress.target} />}
      </div>
      <div className="quest__side">
        <span className="quest__coins">{t('quest.coins', { coins: def.coins })}</span>
        {completed ? (
          <>
            <span className="quest__done">{t('quest.done')}</span>
            {view.completedId !== undefined && (
              <Button
                variant="link"
                onClick={() => void completedTasksState.loadDetail(view.completedId!, fetchCompletedTask)}
                aria-describedby={titleId}
              >
                {t('detail.open')}
              </Button>
            )}
            <TaskBoostButton taskTitle={def.serverTitle} boosted={boosted} />
          </>
        ) : def.network && verifiedFollow ? null : def.network ? (
          // A real link, so the channel opens in a new tab even where pop-ups are blocked; the
          // click itself is the trusted follow the server pays for (decisions §7).
          <a
            className={`btn btn--primary${busy ? ' btn--loading' : ''}`}
            href={SOCIAL_LINKS[def.network]}
            target="_blank"
            rel="noopener noreferrer"
            aria-describedby={titleId}
            onClick={() => void run(() => rewardSocial(def.network!))}
          >
            <span className="btn__label">{t(`quest.${def.key}.button`)}</span>
          </a>
        ) : def.invites !== undefined ? (
          view.claimable ? (
            <Button loading={busy} onClick={() => void claimInvites()} aria-describedby={titleId}>
              {t('quest.invite.claim')}
            </Button>
          ) : (
            <Link className="btn btn--ghost" to="/referrals" aria-describedby={titleId}>
              <span className="btn__label">{t('quest.invite.button')}</span>
            </Link>
          )
        ) : needsWallet ? (
          <Button onClick={() => openModal('connectWallet')} aria-describedby={titleId}>
            {t('quest.offer.connectWallet')}
          </Button>
        ) : (
          <Button loading={busy} onClick={() => void run(() => checkAccountQuest(def.key))} aria-describedby={titleId}>
            {t(`quest.${def.key}.button`)}
          </Button>
        )}
      </div>
      {def.network && verifiedFollow && !completed && (
        <FollowSteps network={def.network} linked={verifiedFollow.linked} titleId={titleId} onReward={followPaid} />
      )}
      {view.completedId !== undefined && <CompletedTaskDetail id={view.completedId} />}
      {line && (
        <div className={`quest__line quest__line--${line.kind}`} role={line.kind === 'error' ? 'alert' : 'status'}>
          <span>{line.text}</span>
          {offer && (
            <Button variant="link" onClick={() => openModal(offer)}>
              {t(`quest.offer.${offer}`)}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}

function Progress({ count, target }: { count: number; target: number }) {
  const { t } = useTranslation('tasks');
  const label = t('quest.invite.progress', { count, target });
  return (
    <div className="quest__progress">
      <progress max={target} value={count} aria-label={label} />
      <span>{label}</span>
    </div>
  );
}
