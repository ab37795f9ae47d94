// A route option that holds one value, a list of them or nothing (its hooks, its method): plugins that
// read or extend a route's options in onRoute take it as a list.

/** The option's values as a new list (an empty one when unset). */
export const listOf = <T>(option: T | readonly T[] | undefined): T[] =>
  option === undefined ? [] : Array.isArray(option) ? [...(option as readonly T[])] : [option as T];
