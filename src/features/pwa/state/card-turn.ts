// One PWA card at a time (issue 24: on a phone the install and reminder cards together pushed the
// miner's Claim below the fold). Each card says whether it wants to show; it shows when no card
// before it in TURNS wants to: the one-time offline notice, then the claim reminders, then install.
import { atom, useAtom } from 'jotai';
import { useEffect } from 'react';

const TURNS = ['offlineReady', 'push', 'install'] as const;
export type CardName = (typeof TURNS)[number];

const wantingAtom = atom<Record<CardName, boolean>>({ offlineReady: false, push: false, install: false });

/** Whether the card `name`, wanting to show, has its turn now. */
export function useCardTurn(name: CardName, wants: boolean): boolean {
  const [wanting, setWanting] = useAtom(wantingAtom);
  useEffect(() => {
    setWanting((w) => (w[name] === wants ? w : { ...w, [name]: wants }));
    return () => setWanting((w) => (w[name] ? { ...w, [name]: false } : w));
  }, [name, wants, setWanting]);
  return wants && TURNS.slice(0, TURNS.indexOf(name)).every((other) => !wanting[other]);
}
