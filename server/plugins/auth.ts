// Reads the bearer token of every request into `request.userId` (null when absent or invalid) and
// `request.sessionId`. A token counts only while its session (decisions §13) is live: the check is
// one indexed read per signed-in call, so an ended session is refused at once on every process.
// Routes that need a player add `onRequest: app.requireUser`, which answers 401 token_not_valid.
// Routes where a player is optional but changes what the call does (linking instead of signing in)
// add `app.refuseBadToken`: a token sent but no longer valid is a 401 the client renews and retries,
// not an anonymous call that signs in to, or registers, another account.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_TOKEN_SECONDS } from '@shared/constants';
import { notAuthenticated } from '../lib/errors';
import { listOf } from '../lib/one-or-many';
import { logAsUser } from '../lib/request-log';
import { createJwt, type Jwt } from '../services/jwt';
import { createKnownDevices, type KnownDevices } from '../services/known-devices';
import { liveSession } from '../services/sessions';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's own query checks the token's session (GET /auth/me: one statement instead of two). */
    sessionCheckedByRoute?: boolean;
  }
  interface FastifyInstance {
    jwt: Jwt;
    knownDevices: KnownDevices;
    issueAccess(userId: number, sessionId: number): string;
    requireUser(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
    refuseBadToken(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  }
  interface FastifyRequest {
    userId: number | null;
    /** The session of the bearer token, with `userId`. */
    sessionId: number | null;
    /** True when a token was sent but is not valid (expired, forged, its session ended). */
    badToken: boolean;
  }
}

/**
 * Every route the plugin `app` declares after this call needs a player: `app.requireUser` goes first
 * into each route's own onRequest, where the OpenAPI document sees it (401 and `security`,
 * lib/openapi-answers.ts). A plugin-level `app.addHook('onRequest', app.requireUser)` refuses the
 * same calls at the same point, but no route option shows it, so the document could not tell.
 */
export function requireUserOnEveryRoute(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    route.onRequest = [app.requireUser, ...listOf(route.onRequest)] as typeof route.onRequest;
  });
}

export default fp(
  async function auth(app: FastifyInstance) {
    const jwt = createJwt(app.config.jwtSecret);
    app.decorate('jwt', jwt);
    app.decorate('knownDevices', createKnownDevices(app.config.jwtSecret));
    app.decorate('issueAccess', (userId: number, sessionId: number) =>
      jwt.issueAccess(userId, sessionId, ACCESS_TOKEN_SECONDS),
    );
    app.decorateRequest('userId', null);
    app.decorateRequest('sessionId', null);
    app.decorateRequest('badToken', false);

    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers.authorization;
      if (!header) return done();
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const claims = token ? jwt.verifyAccess(token) : null;
      if (!claims) {
        request.badToken = true;
        return done();
      }
      if (request.routeOptions.config.sessionCheckedByRoute) {
        request.userId = claims.sub;
        request.sessionId = claims.sid;
        logAsUser(request, reply, claims.sub);
        return done();
      }
      const decide = (live: boolean) => {
        if (live) {
          request.userId = claims.sub;
          request.sessionId = claims.sid;
          logAsUser(request, reply, claims.sub);
        } else request.badToken = true;
        done();
      };
      const live = liveSession(app.db, claims.sid, claims.sub, (err) =>
        request.log.warn({ err }, 'could not note the session as used'),
      );
      if (typeof live === 'boolean') decide(live);
      else live.then(decide, done);
    });

    // A callback hook: an async one costs a promise and a turn of the microtask queue on every signed-in call.
    app.decorate('requireUser', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (request.userId !== null) return done();
      done(
        notAuthenticated(
          request.badToken
            ? 'Given token not valid for any token type'
            : 'Authentication credentials were not provided.',
        ),
      );
    });
    app.decorate('refuseBadToken', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (request.badToken) return done(notAuthenticated());
      done();
    });
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);
