// A place a page keeps for the app's own cards (issue 24: on a phone the install and reminder cards
// pushed the miner's Claim below the fold when they stood above the page). The page renders
// <CardSlot /> where such a card belongs; the PWA layer puts its card there while the slot exists,
// and in its dock under the header otherwise.
import { atom, useSetAtom } from 'jotai';
import { useCallback } from 'react';

export const cardSlotAtom = atom<HTMLElement | null>(null);

export function CardSlot({ className }: { className?: string }) {
  const setSlot = useSetAtom(cardSlotAtom);
  const ref = useCallback(
    (el: HTMLDivElement | null) => {
      setSlot(el);
    },
    [setSlot],
  );
  return <div ref={ref} className={className} data-testid="card-slot" />;
}
