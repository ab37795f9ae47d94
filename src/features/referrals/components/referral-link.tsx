import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/button';
import { canShare, copyText, shareLink } from '../lib/share-link';

const COPIED_MS = 2500;

/** The player's referral link with Copy (and a visible "Copied") and Share where the browser has it. */
export function ReferralLink({ link }: { link: string | undefined }) {
  const { t } = useTranslation('referrals');
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    if (!link) return;
    const ok = await copyText(link);
    setState(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setState('idle'), COPIED_MS);
  };

  return (
    <section className="ref-link" aria-labelledby="ref-link-title">
      <h2 id="ref-link-title">{t('link.title')}</h2>
      <p className="ref-link__text">{t('link.text')}</p>
      <div className="ref-link__row">
        {/* Text, not an input: an input shows one line and cuts the code on a phone (issue 24). */}
        <p className={`ref-link__value${link ? '' : ' ref-link__value--unknown'}`}>
          {link ? (
            <>
              <span className="visually-hidden">{t('link.label')}: </span>
              <span className="ref-link__code" data-testid="referral-link">
                {link}
              </span>
            </>
          ) : (
            t('link.unknown')
          )}
        </p>
        <Button onClick={() => void copy()} disabled={!link}>
          {state === 'copied' ? t('link.copied') : t('link.copy')}
        </Button>
        {canShare() && (
          <Button
            variant="secondary"
            disabled={!link}
            onClick={() => link && void shareLink(link, t('link.shareTitle'), t('link.shareText'))}
          >
            {t('link.share')}
          </Button>
        )}
      </div>
      <p className={`ref-link__status ref-link__status--${state}`} role="status">
        {state === 'copied' ? t('link.copiedNotice') : state === 'failed' ? t('link.copyFailed') : ''}
      </p>
    </section>
  );
}
