import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { toApiFailure } from '@/lib/api-errors';
import { currentLanguage } from '@/lib/i18n';
import { claimReferralAwards } from '@/lib/referrals';
import { fetchPaidAwards } from '../api/referrals-api';
import { awardRows, canClaimAwards, claimAnswerText, claimFailureText } from '../state/awards';

/** The awards (spec §3): friends, points, completion, and the claim of every reached award. */
export function AwardsTable({ referralCount }: { referralCount: number }) {
  const { t } = useTranslation('referrals');
  const [busy, setBusy] = useState(false);
  const [line, setLine] = useState<{ kind: 'ok' | 'info' | 'error'; text: string } | null>(null);
  const [paid, setPaid] = useState<ReadonlySet<number> | null>(null);
  const lang = currentLanguage();
  const rows = awardRows(referralCount, paid);
  // Issue 16: the claim is offered once an award is reached; until then the next one's progress.
  // Issue 24: and only while a reached award is still unpaid.
  const claimable = canClaimAwards(rows, paid !== null);
  const next = rows.find((r) => !r.completed);

  useEffect(() => {
    let live = true;
    // Unknown (offline, a failure): the claim stays offered for every reached award, as before.
    fetchPaidAwards().then(
      (friends) => live && setPaid(new Set(friends)),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [referralCount]);

  const claim = async () => {
    setBusy(true);
    setLine(null);
    try {
      const answer = await claimReferralAwards();
      const text = claimAnswerText(lang, answer);
      // Everything reached is paid now (by this claim or an earlier one).
      setPaid(new Set(rows.filter((r) => r.completed).map((r) => r.friends)));
      setLine(
        answer.reward > 0
          ? { kind: 'ok', text: t('awards.paid', { text, coins: answer.reward }) }
          : { kind: 'info', text },
      );
    } catch (err) {
      setLine({
        kind: 'error',
        text: claimFailureText(lang, toApiFailure(err, t('awards.failed')), t('awards.failed')),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="awards" aria-labelledby="awards-title">
      <h2 id="awards-title">{t('awards.title')}</h2>
      <div className="awards__scroll">
        <table className="awards__table">
          <thead>
            <tr>
              <th scope="col">{t('awards.friends')}</th>
              <th scope="col">{t('awards.points')}</th>
              <th scope="col">{t('awards.status')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.friends} className={row.completed ? 'awards__row--done' : undefined}>
                <th scope="row">{t('awards.invite', { count: row.friends })}</th>
                <td>{t('awards.coins', { coins: row.points })}</td>
                <td data-testid={`award-status-${row.friends}`}>
                  {row.paid
                    ? t('awards.paidStatus')
                    : row.completed
                      ? paid
                        ? t('awards.ready')
                        : t('awards.complete')
                      : t('awards.progress', { count: Math.min(referralCount, row.friends), target: row.friends })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="awards__claim">
        <Button loading={busy} disabled={!claimable} onClick={() => void claim()}>
          {t('awards.claim')}
        </Button>
        {next && (
          <p className="awards__next" data-testid="awards-next">
            {t('awards.next', {
              count: Math.min(referralCount, next.friends),
              target: next.friends,
              coins: next.points,
            })}
          </p>
        )}
        {line && (
          <p className={`awards__line awards__line--${line.kind}`} role={line.kind === 'error' ? 'alert' : 'status'}>
            {line.text}
          </p>
        )}
      </div>
    </section>
  );
}
