// /auth/telegram/callback and /auth/discord/callback: where Telegram's Login Widget (features/auth)
// and Discord's OAuth2 (features/tasks, signed-in players only) send the player back. One route,
// so the first visit's route map carries one entry for both.
import { lazy, useEffect } from 'react';
// Only what the entry already takes from react-router: the router is in the first visit's chunk
// whole, so each of its exports a lazy page names is first-visit bytes.
import { useLocation, useNavigate } from 'react-router';
import { RouteGuard } from '../route-guard';

const TelegramCallback = lazy(() =>
  import('@/features/auth/components/telegram-callback-page').then((m) => ({ default: m.TelegramCallbackPage })),
);
const DiscordCallback = lazy(() =>
  import('@/features/tasks/components/discord-callback').then((m) => ({ default: m.DiscordCallback })),
);

export default function AuthCallbackRoute() {
  const provider = useLocation().pathname.split('/')[2];
  const navigate = useNavigate();
  const known = provider === 'telegram' || provider === 'discord';
  useEffect(() => {
    if (!known) void navigate('/', { replace: true });
  }, [known, navigate]);
  if (provider === 'telegram') return <TelegramCallback />;
  if (provider === 'discord')
    return (
      <RouteGuard path="/tasks">
        <DiscordCallback />
      </RouteGuard>
    );
  return null;
}
