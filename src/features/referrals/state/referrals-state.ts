// The referral list and detail requests (spec §4, §8 Referrals): separate loading and error, the
// list's failure reads 'Could not fetch referrals' and the detail's 'Referral detail not found'
// unless the server said why ('User not found in your referral list' for someone else's id).
import type { Referral } from '@shared/api/referrals';
import { toApiFailure } from '@/lib/api-errors';
import { i18n } from '@/lib/i18n';
import { listDetailStore } from '@/lib/list-detail-state';
import { listFailureText } from './awards';

/** The detail's failure text: the catalogue's 'not in your list', the server's own word, else the fallback. */
export function detailFailureText(err: unknown, texts: { notFound: string; fallback: string }): string {
  const f = toApiFailure(err, texts.fallback);
  if (f.code === 'referral_not_found') return texts.notFound;
  return f.fromServer && !f.serverFault ? f.message : texts.fallback;
}

export const referralsState = listDetailStore<Referral[], Referral>({
  list: (err) => listFailureText(toApiFailure(err, i18n.t('referrals:list.failed')), i18n.t('referrals:list.failed')),
  detail: (err) =>
    detailFailureText(err, {
      notFound: i18n.t('referrals:detail.notFound'),
      fallback: i18n.t('referrals:detail.failed'),
    }),
});
