import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '@/components/spinner';
import { toApiFailure } from '@/lib/api-errors';
import { ReauthCancelled, withReauth } from '@/lib/reauth';
import { linkDiscord, refreshFollows } from '../api/tasks-api';
import './tasks.css';

type Outcome = { kind: 'connecting' } | { kind: 'failed'; text: string };

/**
 * /auth/discord/callback?code&state: where Discord sends the player back (decisions §14). The code
 * and state go to POST /auth/discord/ (the account proof asked through the reauth prompt when the
 * server wants it), then the player is back on /tasks with the Discord step done.
 */
export function DiscordCallback() {
  const { t } = useTranslation('tasks');
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'connecting' });
  // The code is good once: a second effect run (StrictMode, a re-render) must not post it again.
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    const code = params.get('code');
    const state = params.get('state');
    // Discord sends `error=access_denied` when the player cancels on its page.
    if (!code || !state) return void setOutcome({ kind: 'failed', text: t('follow.discord.cancelled') });
    void (async () => {
      try {
        await withReauth((proof) => linkDiscord({ code, state, ...proof }));
        await refreshFollows().catch(() => undefined);
        void navigate('/tasks', { replace: true });
      } catch (err) {
        if (err instanceof ReauthCancelled) return setOutcome({ kind: 'failed', text: t('follow.discord.cancelled') });
        const failure = toApiFailure(err, t('errors.requestFailed'));
        const known = ['discord_in_use', 'discord_already_set', 'discord_unavailable'].includes(failure.code ?? '');
        setOutcome({
          kind: 'failed',
          text: known ? t(`follow.discord.errors.${failure.code}`) : t('follow.discord.failed'),
        });
      }
    })();
  }, [params, navigate, t]);

  return (
    <section className="quests discord-callback" aria-labelledby="discord-callback-title">
      <h1 id="discord-callback-title">{t('follow.discord.title')}</h1>
      {outcome.kind === 'connecting' ? (
        <Spinner size="lg" label={t('follow.discord.connecting')} />
      ) : (
        <>
          <p className="quest__line quest__line--error" role="alert">
            {outcome.text}
          </p>
          <Link className="btn btn--primary" to="/tasks">
            <span className="btn__label">{t('follow.discord.back')}</span>
          </Link>
        </>
      )}
    </section>
  );
}
