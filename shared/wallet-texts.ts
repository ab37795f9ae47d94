// The exact texts a wallet signs (product spec §7). The server rebuilds them to verify a signature,
// so a single character of difference here breaks sign-in: both sides import this file.

export const walletLoginText = (product: string, timestampMs: number) =>
  `Authorization in the ${product}. Timestamp: ${timestampMs}`;

export const walletBindText = (timestampMs: number) => `Bind wallet to your account. Timestamp: ${timestampMs}`;

/** Signed to prove the account's own wallet before a sign-in method or the e-mail changes (decisions §13). */
export const walletReauthText = (product: string, timestampMs: number) =>
  `Confirm account change in the ${product}. Timestamp: ${timestampMs}`;
