// Which sign-in method an account may remove: the server's refusal and the profile's Remove buttons
// (decisions §13) follow the same rule.
import type { MethodKind } from './api/auth';

/**
 * Whether an account with these methods may remove `kind`: never its last way to sign in (Discord
 * only links an account, it signs nobody in). The server refuses the rest; the profile offers no
 * Remove for them.
 */
export const methodRemovable = (kinds: readonly MethodKind[], kind: MethodKind) =>
  kinds.some((k) => k !== kind && k !== 'discord');
