// The profile's own call: asking for the password-change link (spec §7 GET auth/change-password-request/).
import type { DetailResponse } from '@shared/api/auth';
import { api } from '@/lib/api-client';

export const requestPasswordChange = () => api<DetailResponse>('auth/change-password-request/');
