// Checks a wallet's personal_sign signature of one of the spec's texts: the signer must be the
// claimed address, the timestamp within 5 minutes of the server clock, and the signed message
// unused. Addresses are kept in EIP-55 checksum form.
import { createHash } from 'node:crypto';
import { getAddress, type Hex, recoverMessageAddress } from 'viem';
import { WALLET_SIGNATURE_MAX_AGE_MS } from '@shared/constants';
import { refuse } from '../lib/errors';
import type { Tx } from '../db/schema';

/**
 * Replay records outlive every signature they guard: a timestamp up to 5 minutes ahead stays
 * acceptable for 10 minutes after it was first used, plus a margin for clock steps.
 */
const USED_SIGNATURE_KEEP_MS = 2 * WALLET_SIGNATURE_MAX_AGE_MS + 60 * 1000;

export const checksumAddress = (address: string) => getAddress(address.toLowerCase());

export type SignatureCheck = { ok: true; address: string } | { ok: false; reason: 'stale' | 'bad_signature' };

/** Within 5 minutes of the server clock: a cheap check, done before a signature is counted or recovered. */
export const isFreshTimestamp = (timestamp: number, now = Date.now()) =>
  Number.isSafeInteger(timestamp) && Math.abs(now - timestamp) <= WALLET_SIGNATURE_MAX_AGE_MS;

/** Verifies signer and freshness (no database). */
export async function checkWalletSignature(
  s: { address: string; signature: string; timestamp: number; message: string },
  now = Date.now(),
): Promise<SignatureCheck> {
  if (!isFreshTimestamp(s.timestamp, now)) return { ok: false, reason: 'stale' };
  let claimed: string;
  let signer: string;
  try {
    claimed = checksumAddress(s.address);
    signer = await recoverMessageAddress({ message: s.message, signature: s.signature as Hex });
  } catch {
    return { ok: false, reason: 'bad_signature' };
  }
  return signer === claimed ? { ok: true, address: claimed } : { ok: false, reason: 'bad_signature' };
}

/**
 * Records a verified message as used; false when it was used before. Keyed by signer + text, which
 * holds the purpose and the timestamp, so neither a byte-altered signature nor the other purpose's
 * text gets through twice.
 */
export async function markSignatureUsed(trx: Tx, address: string, message: string, now = Date.now()): Promise<boolean> {
  const message_hash = createHash('sha256').update(`${address}\n${message}`).digest('hex');
  const inserted = await trx
    .insertInto('used_signatures')
    .values({ message_hash, created_at: now })
    .onConflict((oc) => oc.column('message_hash').doNothing())
    .returning('message_hash')
    .executeTakeFirst();
  return inserted !== undefined;
}

export const signatureReused = () => refuse('signature_used', 'This signature was already used. Sign again.');
export const signatureStale = () =>
  refuse('signature_expired', 'The signature has expired. Check your device clock and sign again.');
export const signatureInvalid = () => refuse('invalid_signature', 'The signature does not match the wallet address.');

const lastPrune = new WeakMap<object, number>();
/** Deletes replay records older than any acceptable timestamp; runs at most once a minute per database handle. */
export async function pruneUsedSignatures(db: Tx, now = Date.now()): Promise<void> {
  if (now - (lastPrune.get(db) ?? 0) < 60_000) return;
  lastPrune.set(db, now);
  await db
    .deleteFrom('used_signatures')
    .where('created_at', '<', now - USED_SIGNATURE_KEEP_MS)
    .execute();
}
