// The VAPID public key arrives as base64url text (RFC 4648 §5, padding optional); pushManager wants
// the raw bytes as `applicationServerKey`.

/** Decodes base64url (with or without '=' padding). Throws on characters outside the alphabet. */
export function base64UrlToBytes(text: string): Uint8Array<ArrayBuffer> {
  const trimmed = text.replace(/=+$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(trimmed) || trimmed.length % 4 === 1) throw new Error('not base64url');
  const base64 = trimmed.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (trimmed.length % 4)) % 4);
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** True when two keys hold the same bytes (a subscription made with another server key must be replaced). */
export function sameBytes(a: ArrayBuffer | Uint8Array | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = a instanceof Uint8Array ? a : new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}
