// A PWA card in the page's card slot (components/card-slot.tsx) while the page has one, else where
// it stands (the dock under the header).
import { useAtomValue } from 'jotai';
import type { ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { cardSlotAtom } from '@/components/card-slot';

export function InCardSlot({ children }: { children: ReactNode }) {
  const slot = useAtomValue(cardSlotAtom);
  return slot ? createPortal(children, slot) : children;
}
