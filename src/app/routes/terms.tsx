// /terms — the Terms of Use (features/legal), public.
import { LegalPage } from '@/features/legal/components/legal-page';

export default function TermsRoute() {
  return <LegalPage doc="terms" />;
}
