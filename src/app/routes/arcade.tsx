// /arcade — the arcade season (features/arcade).
import { ArcadePage } from '@/features/arcade/components/arcade-page';

export default function ArcadeRoute() {
  return <ArcadePage />;
}
