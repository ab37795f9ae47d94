// Who may open which page (spec §2, §6). Pure, so the rule is unit-tested apart from the router.
export type Access = 'public' | 'signedIn' | 'iso';

export interface AccessFacts {
  signedIn: boolean;
  /** The user record's ico flag ("iso" in the spec's client state). */
  iso: boolean;
}

export type AccessDecision = { allow: true } | { allow: false; redirectTo: '/'; openMainLogin: boolean };

export function decideAccess(access: Access, facts: AccessFacts): AccessDecision {
  if (access === 'public') return { allow: true };
  // A visitor is sent to the main page with the main login open.
  if (!facts.signedIn) return { allow: false, redirectTo: '/', openMainLogin: true };
  if (access === 'iso' && !facts.iso) return { allow: false, redirectTo: '/', openMainLogin: false };
  return { allow: true };
}

/** The route table of spec §2: path → access. The router (router.tsx) adds each page's lazy module. */
export const ROUTE_ACCESS = {
  '/': 'public',
  '/blog': 'public',
  '/profile': 'public',
  '/tasks': 'signedIn',
  '/article/:id': 'signedIn',
  '/referrals': 'signedIn',
  '/arcade': 'signedIn',
  '/miner': 'signedIn',
  '/mining': 'signedIn',
  '/boost': 'signedIn',
  '/ico': 'iso',
  '/privacy': 'public',
  '/terms': 'public',
  /** Telegram's Login Widget returns here signed out (sign-in) or signed in (linking); Discord's
   * OAuth2 only signed in (routes/auth-callback.tsx guards that page like /tasks). */
  '/auth/:provider/callback': 'public',
  '*': 'public',
} as const satisfies Record<string, Access>;

export type RoutePath = keyof typeof ROUTE_ACCESS;
