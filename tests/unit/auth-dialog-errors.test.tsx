// Spec §8/§5 texts of two account dialogs against real refusals (fetch answers as the server would):
// the add-e-mail-and-password dialog falls back to 'Add email and password failed', and the
// first-time username dialog reads 'taken' for ANY 400.
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from './render-in-app';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let answer: (url: string) => Response = () => json(500, {});
vi.stubGlobal('fetch', async (input: RequestInfo | URL) => answer(String(input)));

const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const { userStatusAtom } = await import('@/lib/current-user');
const { default: AddEmailPasswordModal } = await import('@/features/auth/components/add-email-password-modal');
const { default: AccountDetailsModal } = await import('@/features/auth/components/account-details-modal');

beforeEach(() => {
  session.setTokens({ access: 'a', refresh: 'r' });
  store.set(userStatusAtom, 'authenticated');
});
afterEach(cleanup);

describe('add e-mail and password: refusal texts (spec §8)', () => {
  async function submitWith(refusal: Response) {
    answer = (url) => (url.endsWith('/auth/add-email-password/') ? refusal : json(404, {}));
    await renderInApp(<AddEmailPasswordModal />, store);
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'rider@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret123' } });
    fireEvent.change(screen.getByLabelText('Repeat password'), { target: { value: 'secret123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
  }

  it("a refusal without a text of its own reads 'Add email and password failed'", async () => {
    await submitWith(json(400, {}));
    expect((await screen.findByRole('alert')).textContent).toBe('Add email and password failed');
  });

  it("the server's own message is shown as it is", async () => {
    await submitWith(json(400, { detail: 'Password already set for this account', code: 'password_already_set' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Password already set for this account');
  });
});

describe('first-time username: any 400 reads taken (spec §5)', () => {
  it.each([
    ['taken', { detail: 'Username is already taken', code: 'username_taken' }],
    ['another 400', { detail: 'Username may only contain letters, digits and _', code: 'validation_error' }],
    ['a bare 400', {}],
  ])('%s', async (_name, body) => {
    answer = (url) => (url.endsWith('/auth/complete-registration/') ? json(400, body) : json(404, {}));
    await renderInApp(<AccountDetailsModal />, store);
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'neon_rider' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('This username is already taken')).toBeTruthy();
  });
});
