// /referrals — the referral link, the list of referrals and the awards (features/referrals).
import { ReferralsPage } from '@/features/referrals/components/referrals-page';

export default function ReferralsRoute() {
  return <ReferralsPage />;
}
