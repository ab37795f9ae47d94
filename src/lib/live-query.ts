// Dexie's live queries for React, their answers rendered as transitions. dexie-react-hooks renders a
// new answer as an ordinary update, which React renders in one uninterrupted task: the miner's rows
// arriving from IndexedDB made 30–60 ms tasks on the 2-core machine (four times that in Lighthouse's
// mobile TBT, issue 25). In a transition React renders in slices of a few milliseconds and yields to
// the page between them. The first answer is still read at once when Dexie has it cached.
import { liveQuery } from 'dexie';
import { type InteropableObservable, useObservable } from 'dexie-react-hooks';
import { startTransition } from 'react';

type Next<T> = (value: T) => void;

/** `liveQuery(querier)` whose answers reach React inside startTransition. */
function inTransitions<T>(querier: () => Promise<T> | T): InteropableObservable<T> {
  const source = liveQuery(querier);
  return {
    // Read only when hasValue() is true, so Dexie's getValue is there then.
    hasValue: () => source.hasValue?.() ?? false,
    getValue: () => source.getValue!(),
    subscribe: (next: Next<T>, error?: (err: unknown) => void) =>
      source.subscribe({ next: (value) => startTransition(() => next(value)), error }),
  };
}

/** dexie-react-hooks' useLiveQuery (same arguments, same answers), rendered as a transition. */
export function useLiveQuery<T>(querier: () => Promise<T> | T, deps?: unknown[]): T | undefined;
export function useLiveQuery<T, D>(querier: () => Promise<T> | T, deps: unknown[], defaultResult: D): T | D;
export function useLiveQuery<T, D>(querier: () => Promise<T> | T, deps: unknown[] = [], defaultResult?: D) {
  return useObservable<T, D | undefined>(() => inTransitions(querier), deps, defaultResult);
}
