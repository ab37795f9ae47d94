// Issue 24: a wallet linked from the profile also completes the wallet quest. Once the wallet turns
// up while the profile is open, its quest is paid (the quest's own check, which pays once) and the
// profile says what it paid; a quest paid before, or any refusal, says nothing more.
import { useEffect, useRef, useState } from 'react';
import { refreshCurrentUser } from '@/lib/current-user';
import { checkWalletQuest } from '../api/profile-api';

/** The coins the wallet quest paid after a wallet was linked on this page, else null. */
export function useWalletQuestReward(wallet: string | null | undefined): number | null {
  const [paid, setPaid] = useState<number | null>(null);
  // Known without a wallet on this page: a wallet that appears later was linked here.
  const seenWithout = useRef(false);
  useEffect(() => {
    if (wallet === undefined) return;
    if (!wallet) {
      seenWithout.current = true;
      return;
    }
    if (!seenWithout.current) return;
    seenWithout.current = false;
    let live = true;
    checkWalletQuest().then(
      (answer) => {
        if (!live || answer.reward <= 0) return;
        setPaid(answer.reward);
        void refreshCurrentUser().catch(() => undefined);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wallet]);
  return paid;
}
