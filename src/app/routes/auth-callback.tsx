// /auth/telegram/callback and /auth/discord/callback: where Telegram's Login Widget (features/auth)
// and Discord's OAuth2 (features/tasks, signed-in players only) send the player back. One route,
// so the first visit's route map carries one entry for both.
import { lazy } from 'react';
import { Navigate, useParams } from 'react-router';
import { RouteGuard } from '../route-guard';

const TelegramCallback = lazy(() =>
  import('@/features/auth/components/telegram-callback-page').then((m) => ({ default: m.TelegramCallbackPage })),
);
const DiscordCallback = lazy(() =>
  import('@/features/tasks/components/discord-callback').then((m) => ({ default: m.DiscordCallback })),
);

export default function AuthCallbackRoute() {
  const { provider } = useParams();
  if (provider === 'telegram') return <TelegramCallback />;
  if (provider === 'discord')
    return (
      <RouteGuard path="/tasks">
        <DiscordCallback />
      </RouteGuard>
    );
  return <Navigate to="/" replace />;
}
