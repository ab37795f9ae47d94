// /auth/discord/callback — where Discord sends the player back (features/tasks, decisions §14).
import { DiscordCallback } from '@/features/tasks/components/discord-callback';

export default function DiscordCallbackRoute() {
  return <DiscordCallback />;
}
