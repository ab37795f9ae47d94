// Cards that arrive on their own (the worker's first install, the browser's install offer) come a
// few seconds into a page. Pushed in under the header then, they shove the page being read (layout
// shift 0.17 on a phone, issue 14); from the player's next page on, they appear with the new page.
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { startGateOf } from '@/lib/early-taps';
import { firstPageKey, hadInputOn } from './page-input';

/** The page each named card became due on, kept across remounts (a card moving into a page's card slot is mounted anew). */
const dueOnByCard = new Map<string, string>();
/**
 * The app started on a page the visitor opened natively from one it never ran on (a visitor's
 * prerendered page: lib/start-on-intent.ts); there the app's first page is already the next one,
 * as it was when the app ran on that earlier page and the link was its own navigation.
 */
const EARLIER_PAGE = '(an earlier page)';

/**
 * `due`, from the first page change after it became true (a location key other than that page's).
 * `card` names it so that a remount (into or out of a page's card slot) keeps the page it was due on.
 */
export function useFromNextPage(due: boolean, card?: string): boolean {
  const { key } = useLocation();
  const [dueOn, setDueOn] = useState<string | null>(() => (card ? (dueOnByCard.get(card) ?? null) : null));
  useEffect(() => {
    if (!due && card) dueOnByCard.delete(card);
    if (!due || dueOn !== null) return;
    const on = key === firstPageKey() && startGateOf()?.earlierPage ? EARLIER_PAGE : key;
    if (card) dueOnByCard.set(card, on);
    setDueOn(on);
  }, [due, dueOn, key, card]);
  return due && dueOn !== null && dueOn !== key;
}

/**
 * For a card the player can also bring about on the page (the reminder switch, once they start
 * mining): when it turns due after a tap or key press on this page, it answers them at once, also
 * when the layer that knows it arrived only after that tap; otherwise (due when the page opened,
 * or from data arriving) it waits for the next page, as above. `due` is undefined while not known.
 */
export function useFromNextPageUnlessAsked(due: boolean | undefined): boolean {
  const { key } = useLocation();
  const fromNext = useFromNextPage(due === true);
  const [wasDue, setWasDue] = useState<boolean | undefined>(undefined);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (due === undefined || due === wasDue) return;
    if (due && wasDue !== true && hadInputOn(key)) setAsked(true);
    setWasDue(due);
  }, [due, wasDue, key]);
  return due === true && (fromNext || asked);
}
