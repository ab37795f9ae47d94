// / and every unknown path: the main page.
import { LandingPage } from '@/features/landing/components/landing-page';

export default function LandingRoute() {
  return <LandingPage />;
}
