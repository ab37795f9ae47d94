// /ico — the token sale (features/ico).
import { IcoPage } from '@/features/ico/components/ico-page';

export default function IcoRoute() {
  return <IcoPage />;
}
