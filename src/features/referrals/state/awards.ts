// Referral awards (spec §3) and the texts of the referral calls (spec §8 Referrals).
import type { AddReferralReward } from '@shared/api/tasks';
import type { Language } from '@shared/constants';
import { localizeTaskDetail } from '@shared/task-messages';
import { REFERRAL_AWARDS } from '@shared/tasks';
import type { ApiFailure } from '@/lib/api-errors';

export interface AwardRow {
  friends: number;
  points: number;
  /** decisions §7 Deviation: complete once the referral count reaches the award's "friends". */
  completed: boolean;
  /** Its coins were paid (false while that is not known). */
  paid: boolean;
}

/** `paid`: the "friends" numbers of the awards already paid, or null while not known. */
export const awardRows = (referralCount: number, paid: ReadonlySet<number> | null = null): AwardRow[] =>
  REFERRAL_AWARDS.map((a) => ({
    friends: a.friends,
    points: a.points,
    completed: referralCount >= a.friends,
    paid: paid?.has(a.friends) ?? false,
  }));

/**
 * Whether "Claim awards" can pay something (issue 24: a reached award that is paid already does not
 * count). While the paid ones are not known (offline), a reached award offers the claim.
 */
export const canClaimAwards = (rows: readonly AwardRow[], paidKnown: boolean) =>
  rows.some((r) => r.completed && !(paidKnown && r.paid));

/**
 * What a claim answer says: the paid awards, or — for the 'no new rewards' answer (detail
 * 'Нет новых наград', reward 0) — "Not enough referrals for new awards" (decisions §7 Deviation).
 */
export const claimAnswerText = (lang: Language, answer: Pick<AddReferralReward, 'detail' | 'code'>) =>
  localizeTaskDetail(lang, answer.detail, answer.code);

/** A failed claim: the server's message in the player's language, else 'Failed to add reward'. */
export const claimFailureText = (lang: Language, failure: ApiFailure, fallback: string) =>
  failure.fromServer && !failure.serverFault
    ? localizeTaskDetail(lang, failure.message, failure.code ?? undefined)
    : fallback;

/** The list's failure state: 'Could not fetch referrals' unless the server gave a message. */
export const listFailureText = (failure: ApiFailure, fallback: string) =>
  failure.fromServer && !failure.serverFault ? failure.message : fallback;
