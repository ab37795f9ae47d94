// /mining: the mining shop (features/mining).
import { MiningShopPage } from '@/features/mining/components/mining-shop-page';

export default function MiningRoute() {
  return <MiningShopPage />;
}
