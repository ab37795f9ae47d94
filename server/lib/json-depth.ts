// How deeply a JSON text nests, read from the text itself without recursion. 32 000 nested `[` fit
// in the 64 KiB body limit, and any recursive walk over such a value (a canonical hash, a guard, a
// validator) would overflow the stack and answer 500; no call of the API takes more than a few
// levels, so bodies deeper than MAX_JSON_DEPTH are refused before they are even parsed.

/** Nesting levels a request body may have (the deepest API body has 2). */
export const MAX_JSON_DEPTH = 32;

/** Whether `text` opens more than `max` arrays or objects inside one another (strings skipped). */
export function jsonDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      // Skip the string, escapes included; an unterminated one is the parser's to refuse.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c /* \ */) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}
