// Field rules of spec §5, shared so the server refuses exactly what the client's forms refuse.
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from './constants';

export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;
export const PASSWORD_PATTERN = new RegExp(`^(?=.*[A-Za-z])(?=.*\\d).{${PASSWORD_MIN},}$`);

export const isValidEmail = (v: string) => EMAIL_PATTERN.test(v);
export const isValidPassword = (v: string) => PASSWORD_PATTERN.test(v);
export const isValidUsername = (v: string) => v.length >= USERNAME_MIN && v.length <= USERNAME_MAX;

/** Wallet display of spec §2: whole when 10 characters or fewer, else 7 … 3. */
export function shortWallet(address: string): string {
  if (address.length <= 10) return address;
  return `${address.slice(0, 7)}...${address.slice(-3)}`;
}
