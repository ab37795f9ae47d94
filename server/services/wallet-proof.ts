// A wallet's signature as a sign-in proof (spec §7, decisions §5 and §13): the player signs a text
// with a millisecond timestamp; the signature must be fresh and is counted as a sign-in attempt
// before it is checked, so parallel forgeries cannot all be checked. A good one clears the wallet's count.
import type { FastifyInstance } from 'fastify';
import { loginLimits, pruneThrottle, signedIn, takeAttempt } from './throttle';
import {
  checksumAddress,
  checkWalletSignature,
  isFreshTimestamp,
  pruneUsedSignatures,
  signatureInvalid,
  signatureStale,
} from './wallet-signature';

export interface WalletBody {
  address: string;
  signature: string;
  timestamp: number | string;
}

/** The signer and the exact text signed; throws the API's refusal otherwise. Mark the text used in the caller's transaction. */
export async function verifyWalletBody(
  app: FastifyInstance,
  body: WalletBody,
  ip: string,
  text: (ts: number) => string,
) {
  const timestamp = Number(body.timestamp);
  // A stale timestamp (a wrong device clock) is refused before anything is counted.
  if (!isFreshTimestamp(timestamp)) throw signatureStale();
  const attempt = await takeAttempt(app.db, loginLimits('wallet', checksumAddress(body.address), ip));
  const message = text(timestamp);
  const check = await checkWalletSignature({ address: body.address, signature: body.signature, timestamp, message });
  if (!check.ok) {
    await pruneThrottle(app.db);
    throw check.reason === 'stale' ? signatureStale() : signatureInvalid();
  }
  await signedIn(app.db, attempt);
  await pruneUsedSignatures(app.db);
  return { address: check.address, message };
}
