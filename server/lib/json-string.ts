// A string as JSON, for the log lines written by hand (lib/request-lines.ts): most of their strings
// (URLs, hosts, addresses, request ids) are printable ASCII, which JSON writes as it is between
// quotes; a regular expression's test costs less than JSON.stringify's call for those.

/** Printable ASCII but `"` and `\\`. */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** What JSON.stringify(s) writes. */
export const jsonString = (s: string): string => (PLAIN.test(s) ? `"${s}"` : JSON.stringify(s));

/**
 * `toJson` (jsonString by default), remembering the last value: for what most requests share with
 * the one before (lib/request-lines.ts: the method, the URL, the host, the address).
 */
export function lastJsonString(toJson: (s: string) => string = jsonString): (s: string) => string {
  let last: string | undefined;
  let json = '';
  return (s) => {
    if (s !== last) json = toJson((last = s));
    return json;
  };
}
