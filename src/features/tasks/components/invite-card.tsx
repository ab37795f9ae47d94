import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { currentLanguage } from '@/lib/i18n';
import { claimReferralAwards, refreshReferrals } from '@/lib/referrals';
import { refreshBetaStatus, refreshCompletedTasks } from '../api/tasks-api';
import type { InviteSummary } from '../state/quest-list';
import { taskAnswerText, taskFailureText } from '../state/task-text';

/**
 * The nine "Invite N friends" quests as one card (issue 16): active friends, the next target and
 * its coins, how many are done, the claim when one is reached, else the way to /referrals.
 */
export function InviteCard({ summary }: { summary: InviteSummary }) {
  const { t } = useTranslation('tasks');
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const lang = currentLanguage();
  const { next } = summary;

  const claim = async () => {
    setBusy(true);
    setLine(null);
    try {
      const answer = await claimReferralAwards();
      const text = taskAnswerText(lang, answer);
      setLine({ kind: 'ok', text: answer.reward ? t('quest.earned', { text, coins: answer.reward }) : text });
      await Promise.allSettled([
        refreshReferrals(),
        refreshCompletedTasks(),
        refreshCurrentUser(),
        refreshBetaStatus(),
      ]);
    } catch (err) {
      setLine({
        kind: 'error',
        text: taskFailureText(lang, toApiFailure(err, t('errors.requestFailed')), t('errors.requestFailed')),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li
      className={`quest quest--invites${next ? '' : ' quest--done'}`}
      aria-labelledby="quest-invites"
      data-quest="invites"
    >
      <div className="quest__main">
        <h3 id="quest-invites" className="quest__title">
          {t('invites.title')}
        </h3>
        <p className="quest__action">
          {next ? t('invites.next', { target: next.def.invites, coins: next.def.coins }) : t('invites.allDone')}
        </p>
        {next && (
          <div className="quest__progress">
            <progress
              max={next.def.invites}
              value={Math.min(summary.count, next.def.invites ?? 0)}
              aria-label={t('quest.invite.progress', { count: summary.count, target: next.def.invites })}
            />
            <span>
              {t('quest.invite.progress', {
                count: Math.min(summary.count, next.def.invites ?? 0),
                target: next.def.invites,
              })}
            </span>
          </div>
        )}
        <p className="quest__action" data-testid="invites-done">
          {t('invites.done', { done: summary.done, total: summary.total })}
        </p>
      </div>
      <div className="quest__side">
        {summary.claimable ? (
          <Button loading={busy} onClick={() => void claim()} aria-describedby="quest-invites">
            {t('quest.invite.claim')}
          </Button>
        ) : (
          <Link className="btn btn--ghost" to="/referrals" aria-describedby="quest-invites">
            <span className="btn__label">{t('quest.invite.button')}</span>
          </Link>
        )}
      </div>
      {line && (
        <div className={`quest__line quest__line--${line.kind}`} role={line.kind === 'error' ? 'alert' : 'status'}>
          <span>{line.text}</span>
        </div>
      )}
    </li>
  );
}
