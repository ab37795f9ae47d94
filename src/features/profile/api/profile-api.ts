// The profile's own call: asking for the password-change link (spec §7 GET auth/change-password-request/).
import type { DetailResponse } from '@shared/api/auth';
import type { QuestReward } from '@shared/api/tasks';
import { api } from '@/lib/api-client';

export const requestPasswordChange = () => api<DetailResponse>('auth/change-password-request/');

/** Pays the wallet quest once a wallet is linked (GET check-wallet/; refused when already paid). */
export const checkWalletQuest = () => api<QuestReward>('check-wallet/');
