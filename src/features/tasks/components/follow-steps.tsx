import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SocialRewardResponse } from '@shared/api/tasks';
import type { SocialNetwork } from '@shared/tasks';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { currentLanguage } from '@/lib/i18n';
import { SOCIAL_LINKS } from '@/lib/social-links';
import { refreshFollows, rewardSocial, startDiscord } from '../api/tasks-api';
import { taskFailureText } from '../state/task-text';

type Step = 1 | 2 | 3;

interface Props {
  network: SocialNetwork;
  /** The account the follow is checked with is linked (undefined while unknown). */
  linked: boolean | undefined;
  titleId: string;
  /** The follow was paid (or had been): the card shows it done. */
  onReward: (answer: SocialRewardResponse | null) => Promise<void>;
}

/** Which step a refusal of the check sends the player back to (decisions §14). */
function stepOf(code: string | null): Step {
  if (code === 'not_a_member') return 2;
  if (code === 'telegram_not_linked' || code === 'discord_not_linked') return 1;
  return 3;
}

/**
 * A verified follow (decisions §14) as three steps: connect the account the server checks with,
 * join the channel or server, check. A refusal of the check is shown as the step still to do, not
 * as an error.
 */
export function FollowSteps({ network, linked, titleId, onReward }: Props) {
  const { t } = useTranslation('tasks');
  const lang = currentLanguage();
  const kind = network === 'discord' ? 'discord' : 'telegram';
  const [busy, setBusy] = useState<'check' | 'connect' | null>(null);
  const [note, setNote] = useState<{ step: Step; text: string; error: boolean } | null>(null);
  const [checked, setChecked] = useState(false);

  const check = async () => {
    if (busy) return;
    setBusy('check');
    setNote(null);
    try {
      await onReward(await rewardSocial(network));
    } catch (err) {
      const failure = toApiFailure(err, t('errors.requestFailed'));
      if (failure.code === 'reward_already_granted') return void (await onReward(null));
      const step = stepOf(failure.code);
      const known = step !== 3 || failure.code === 'check_unavailable' || failure.code === 'follow_already_rewarded';
      setNote({ step, text: taskFailureText(lang, failure, t('errors.requestFailed')), error: !known });
      // The server may know better than the page (linked in another tab, token expired).
      if (step === 1 || step === 2) await refreshFollows().catch(() => undefined);
    } finally {
      setChecked(true);
      setBusy(null);
    }
  };

  const connectDiscord = async () => {
    if (busy) return;
    setBusy('connect');
    setNote(null);
    try {
      const { url } = await startDiscord();
      window.location.assign(url);
    } catch (err) {
      const failure = toApiFailure(err, t('errors.requestFailed'));
      setNote({
        step: 1,
        text: failure.status === 0 ? t('errors.requestFailed') : t('follow.discord.failed'),
        error: true,
      });
      setBusy(null);
    }
  };

  const current: Step = note?.step ?? (linked === false ? 1 : 2);
  const noteOf = (step: Step) =>
    note?.step === step ? (
      <p className={`follow-step__note${note.error ? ' follow-step__note--error' : ''}`} role="status">
        {note.text}
      </p>
    ) : null;
  const item = (step: Step, text: string, action: ReactNode, done = false) => (
    <li
      className={`follow-step${done ? ' follow-step--done' : ''}`}
      aria-current={current === step && !done ? 'step' : undefined}
      data-step={step}
    >
      <span className="follow-step__number" aria-hidden="true">
        {done ? '✓' : step}
      </span>
      <div className="follow-step__body">
        <p className="follow-step__text">{text}</p>
        {noteOf(step)}
      </div>
      {action && <div className="follow-step__action">{action}</div>}
    </li>
  );

  const connect =
    kind === 'discord' ? (
      <Button
        variant="ghost"
        loading={busy === 'connect'}
        onClick={() => void connectDiscord()}
        aria-describedby={titleId}
      >
        {t('follow.discord.connect')}
      </Button>
    ) : (
      // Telegram is linked in the profile's security section (Login Widget, decisions §14).
      <Link className="btn btn--ghost" to="/profile#security" aria-describedby={titleId}>
        <span className="btn__label">{t('follow.telegram.connect')}</span>
      </Link>
    );

  return (
    <ol className="follow-steps" aria-label={t('follow.steps')}>
      {linked ? item(1, t(`follow.${kind}.connected`), null, true) : item(1, t(`follow.${kind}.connectText`), connect)}
      {item(
        2,
        t(`follow.${kind}.joinText`),
        <a
          className="btn btn--ghost"
          href={SOCIAL_LINKS[network]}
          target="_blank"
          rel="noopener noreferrer"
          aria-describedby={titleId}
        >
          <span className="btn__label">{t(`follow.${kind}.join`)}</span>
        </a>,
      )}
      {item(
        3,
        t('follow.checkText'),
        <Button loading={busy === 'check'} onClick={() => void check()} aria-describedby={titleId}>
          {checked ? t('follow.checkAgain') : t('follow.check')}
        </Button>,
      )}
    </ol>
  );
}
