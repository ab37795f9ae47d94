// Reads the bearer token of every request into `request.userId` (null when absent or invalid).
// Routes that need a player add `onRequest: app.requireUser`, which answers 401 token_not_valid.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import { ACCESS_TOKEN_SECONDS } from '@shared/constants';
import { notAuthenticated } from '../lib/errors';
import { logAsUser } from '../lib/request-log';
import { createJwt, type Jwt } from '../services/jwt';

declare module 'fastify' {
  interface FastifyInstance {
    jwt: Jwt;
    issueAccess(userId: number): string;
    requireUser(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  }
  interface FastifyRequest {
    userId: number | null;
    /** True when a token was sent but is not valid (expired, forged). */
    badToken: boolean;
  }
}

export default fp(
  async function auth(app: FastifyInstance) {
    const jwt = createJwt(app.config.jwtSecret);
    app.decorate('jwt', jwt);
    app.decorate('issueAccess', (userId: number) => jwt.issueAccess(userId, ACCESS_TOKEN_SECONDS));
    app.decorateRequest('userId', null);
    app.decorateRequest('badToken', false);

    app.addHook('onRequest', (request, reply, done) => {
      const header = request.headers.authorization;
      if (!header) return done();
      const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
      const claims = token ? jwt.verifyAccess(token) : null;
      if (claims) {
        request.userId = claims.sub;
        logAsUser(request, reply, claims.sub);
      } else request.badToken = true;
      done();
    });

    // A callback hook: an async one costs a promise and a turn of the microtask queue on every signed-in call.
    app.decorate('requireUser', (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
      if (request.userId !== null) return done();
      done(notAuthenticated(request.badToken ? 'Given token not valid for any token type' : 'Authentication credentials were not provided.'));
    });
  },
  { name: 'auth', dependencies: ['config'] },
);
