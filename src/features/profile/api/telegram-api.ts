// The bot's claim-reminder switch (decisions §14): whether reminders can reach the player, and on/off.
import type { TelegramReminders } from '@shared/api/telegram';
import { api } from '@/lib/api-client';

export const getTelegramReminders = () => api<TelegramReminders>('telegram/reminders/');

export const setTelegramReminders = (enabled: boolean) =>
  api<TelegramReminders>('telegram/reminders/', { method: 'PUT', body: { enabled } });
