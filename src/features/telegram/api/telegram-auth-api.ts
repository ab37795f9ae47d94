// POST /auth/telegram/ with the Mini App's raw init data (decisions §14; contract in shared/api/auth.ts).
// Like every sign-in call it sends this browser's known-device strings and keeps the answer's.
import type { TelegramRequest, TelegramResponse } from '@shared/api/auth';
import { api } from '@/lib/api-client';
import { deviceHeaders, keepDevice } from '@/lib/devices';

export async function loginWithInitData(initData: string): Promise<TelegramResponse> {
  const body: TelegramRequest = { init_data: initData };
  return keepDevice(
    api<TelegramResponse>('auth/telegram/', { method: 'POST', body, skipAuth: true, headers: deviceHeaders() }),
  );
}
