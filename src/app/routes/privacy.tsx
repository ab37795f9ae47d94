// /privacy — the Privacy Policy (features/legal), public.
import { LegalPage } from '@/features/legal/components/legal-page';

export default function PrivacyRoute() {
  return <LegalPage doc="privacy" />;
}
