// One referral of the signed-in player (spec §7 GET referrals/{id}/); the list and the award claim
// live in lib/referrals.ts because the tasks page uses them too.
import type { Referral } from '@shared/api/referrals';
import { api } from '@/lib/api-client';

export const fetchReferral = (id: string) => api<Referral>(`referrals/${encodeURIComponent(id)}/`);
