// A player's /auth/me record for the client tests (shared/api/auth.ts): an e-mail account with a
// password, no wallet, `username` as given.
import type { Me } from '@shared/api/auth';

export const playerRecord = (username: string, extra: Partial<Me> = {}): Me => ({
  username,
  email: `${username}@example.com`,
  wallet_address: '',
  balance: 10,
  token: 0,
  gems: 0,
  referral_link: 'http://localhost/?refCode=x',
  password_set: true,
  mining: false,
  ico: false,
  language: false,
  ...extra,
});
