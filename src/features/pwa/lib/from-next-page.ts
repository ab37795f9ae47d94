// Cards that arrive on their own (the worker's first install, the browser's install offer) come a
// few seconds into a page. Pushed in under the header then, they shove the page being read (layout
// shift 0.17 on a phone, issue 14); from the player's next page on, they appear with the new page.
import { useEffect, useState } from 'react';
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
