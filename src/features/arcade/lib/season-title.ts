// The season's title comes from the operator ("Season 1" by default, migration 004). A title of that
// default form is said in the player's language; any other title is shown as the operator wrote it.
const NUMBERED = /^season\s+(\d+)$/i;

/** The season number when `title` is the default "Season N", else null. */
export function seasonNumber(title: string): number | null {
  const m = NUMBERED.exec(title.trim());
  return m ? Number(m[1]) : null;
}
