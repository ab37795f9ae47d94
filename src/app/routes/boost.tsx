// /boost: task, referral and temporary boosts (features/mining).
import { BoostPage } from '@/features/mining/components/boost-page';

export default function BoostRoute() {
  return <BoostPage />;
}
