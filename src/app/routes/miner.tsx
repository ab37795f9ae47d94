// /miner: the mining rig (features/mining).
import { MinerPage } from '@/features/mining/components/miner-page';

export default function MinerRoute() {
  return <MinerPage />;
}
