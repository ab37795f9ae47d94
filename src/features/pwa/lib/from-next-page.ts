// Cards that arrive on their own (the worker's first install, the browser's install offer) come a
// few seconds into a page. Pushed in under the header then, they shove the page being read (layout
// shift 0.17 on a phone, issue 14); from the player's next page on, they appear with the new page.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';

/** `due`, from the first page change after it became true (a location key other than that page's). */
export function useFromNextPage(due: boolean): boolean {
  const { key } = useLocation();
  const [dueOn, setDueOn] = useState<string | null>(null);
  useEffect(() => {
    if (due && dueOn === null) setDueOn(key);
  }, [due, dueOn, key]);
  return due && dueOn !== null && dueOn !== key;
}

/**
 * For a card the player can also bring about on the page (the reminder switch, once they start
 * mining): when it turns due after a tap or key press on this page, it answers them at once;
 * otherwise (due when the page opened, or from data arriving) it waits for the next page, as above.
 * `due` is undefined while not known yet.
 */
export function useFromNextPageUnlessAsked(due: boolean | undefined): boolean {
  const { key } = useLocation();
  const fromNext = useFromNextPage(due === true);
  const pageKey = useRef(key);
  const inputOn = useRef<string | null>(null);
  const [wasDue, setWasDue] = useState<boolean | undefined>(undefined);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    pageKey.current = key;
  }, [key]);
  useEffect(() => {
    const note = () => {
      inputOn.current = pageKey.current;
    };
    window.addEventListener('pointerdown', note, true);
    window.addEventListener('keydown', note, true);
    return () => {
      window.removeEventListener('pointerdown', note, true);
      window.removeEventListener('keydown', note, true);
    };
  }, []);
  useEffect(() => {
    if (due === undefined || due === wasDue) return;
    if (due && wasDue === false && inputOn.current === key) setAsked(true);
    setWasDue(due);
  }, [due, wasDue, key]);
  return due === true && (fromNext || asked);
}
