// Values that are here at once on SQLite (better-sqlite3 answers synchronously, db/direct-statements.ts)
// and later on PostgreSQL. The hot reads hand them on without a promise when they are here: every
// await is a promise and a turn of the microtask queue, on calls made with every page (GET /auth/me
// went from 37 to 35.5 µs of CPU without its two, `npm run bench`, issue 25).
export type NowOrLater<T> = T | Promise<T>;

const isLater = <T>(value: NowOrLater<T>): value is Promise<T> => value instanceof Promise;

/** `f(value)`, at once when the value is here. */
export function andThen<T, U>(value: NowOrLater<T>, f: (value: T) => NowOrLater<U>): NowOrLater<U> {
  return isLater(value) ? value.then(f) : f(value);
}

/** All of `values`, at once when each is here (else as Promise.all). */
export function allOf<T extends readonly unknown[]>(values: { [K in keyof T]: NowOrLater<T[K]> }): NowOrLater<T> {
  return (values as readonly unknown[]).some((v) => v instanceof Promise)
    ? (Promise.all(values) as Promise<T>)
    : (values as unknown as T);
}
