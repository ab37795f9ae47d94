// The request state of spec §4 "Referrals, assets and subscriptions", shared by the features that
// show a list and one item of it: a request sets loading and clears the error, its answer or
// failure ends loading; the list and the detail keep separate loading and error; an error can be
// set by hand; clearing the detail also clears its error. Pure transitions (unit-tested) and a
// small binder that runs them on an atom of the app's one store.
import { atom, type PrimitiveAtom } from 'jotai';
import { store } from './store';

export interface Slot<T> {
  data: T | null;
  loading: boolean;
  error: string | null;
}

export interface ListDetailState<L, D> {
  list: Slot<L>;
  detail: Slot<D>;
  /** The id the detail was last asked for: an answer for another id arrives too late and is dropped. */
  detailId: string | null;
}

export type Part = 'list' | 'detail';

const emptySlot = { data: null, loading: false, error: null };

export const initialListDetail = <L, D>(): ListDetailState<L, D> => ({
  list: emptySlot,
  detail: emptySlot,
  detailId: null,
});

export const requested = <L, D>(
  s: ListDetailState<L, D>,
  part: Part,
  id: string | null = s.detailId,
): ListDetailState<L, D> =>
  part === 'list'
    ? { ...s, list: { ...s.list, loading: true, error: null } }
    : { ...s, detailId: id, detail: { ...s.detail, loading: true, error: null } };

export function answered<L, D>(s: ListDetailState<L, D>, part: 'list', data: L): ListDetailState<L, D>;
export function answered<L, D>(s: ListDetailState<L, D>, part: 'detail', data: D, id: string): ListDetailState<L, D>;
export function answered<L, D>(s: ListDetailState<L, D>, part: Part, data: L | D, id?: string): ListDetailState<L, D> {
  if (part === 'list') return { ...s, list: { data: data as L, loading: false, error: null } };
  if (id !== s.detailId) return s;
  return { ...s, detail: { data: data as D, loading: false, error: null } };
}

export const failed = <L, D>(
  s: ListDetailState<L, D>,
  part: Part,
  error: string,
  id: string | null = s.detailId,
): ListDetailState<L, D> => {
  if (part === 'list') return { ...s, list: { ...s.list, loading: false, error } };
  if (id !== s.detailId) return s;
  // A failed detail shows no stale item of another id.
  return { ...s, detail: { data: null, loading: false, error } };
};

/** An error set by hand (e.g. a check the page makes before calling). */
export const withError = <L, D>(s: ListDetailState<L, D>, part: Part, error: string | null): ListDetailState<L, D> =>
  part === 'list' ? { ...s, list: { ...s.list, error } } : { ...s, detail: { ...s.detail, error } };

/** Clears the detail: its item, its error, its loading; an answer still on its way is dropped. */
export const detailCleared = <L, D>(s: ListDetailState<L, D>): ListDetailState<L, D> => ({
  ...s,
  detail: emptySlot,
  detailId: null,
});

/** One list-and-detail state on the app's store, with the actions that load and clear it. */
export function listDetailStore<L, D>(texts: { list: (err: unknown) => string; detail: (err: unknown) => string }) {
  const stateAtom: PrimitiveAtom<ListDetailState<L, D>> = atom(initialListDetail<L, D>());
  const update = (f: (s: ListDetailState<L, D>) => ListDetailState<L, D>) =>
    store.set(stateAtom, f(store.get(stateAtom)));
  return {
    atom: stateAtom,
    async loadList(fetch: () => Promise<L>): Promise<void> {
      update((s) => requested(s, 'list'));
      try {
        const data = await fetch();
        update((s) => answered(s, 'list', data));
      } catch (err) {
        update((s) => failed(s, 'list', texts.list(err)));
      }
    },
    async loadDetail(id: string | number, fetch: (id: string) => Promise<D>): Promise<void> {
      const key = String(id);
      update((s) => requested(s, 'detail', key));
      try {
        const data = await fetch(key);
        update((s) => answered(s, 'detail', data, key));
      } catch (err) {
        update((s) => failed(s, 'detail', texts.detail(err), key));
      }
    },
    setError: (part: Part, error: string | null) => update((s) => withError(s, part, error)),
    clearDetail: () => update(detailCleared),
    reset: () => store.set(stateAtom, initialListDetail<L, D>()),
  };
}
