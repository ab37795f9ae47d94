// /auth/telegram/callback — Telegram's Login Widget comes back here (features/auth).
import { TelegramCallbackPage } from '@/features/auth/components/telegram-callback-page';

export default function TelegramCallbackRoute() {
  return <TelegramCallbackPage />;
}
