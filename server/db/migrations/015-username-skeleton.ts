// Usernames are unique by their confusable skeleton (UTS #39, decisions §13) rather than by a case
// fold: `аdmin` with a Cyrillic а, `adm1n` and `ADMIN` all have the key of `admin`, so the unique
// index on username_key refuses a look-alike on both databases, even when two claims race.
//
// Every key is computed anew, oldest account first, as migration 008 did: where two existing names
// now share a skeleton, the older keeps the key and the later one keeps its visible name with no
// key (NULL) until its owner picks another. None is renamed.
import type { Kysely } from 'kysely';
import { usernameKey } from '@shared/validation';
import type { Dialect } from '../schema';
import { fillUsernameKeys } from './008-username-key';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  // All cleared first: new keys may swap between rows, which one by one would hit the unique index.
  await db.updateTable('users').set({ username_key: null }).where('username_key', 'is not', null).execute();
  await fillUsernameKeys(db, usernameKey);
}
