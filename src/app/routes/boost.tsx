// /boost — placeholder until its feature lands (replace the body with the feature's page).
import { PlaceholderPage } from '../../components/placeholder-page';

export default function BoostRoute() {
  return <PlaceholderPage page="boost" />;
}
