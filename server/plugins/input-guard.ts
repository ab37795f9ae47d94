// Refuses text no database column can hold: a NUL character, in the path, the query or any string
// of a JSON body. PostgreSQL rejects NUL in text outright, so without this a stray \u0000 would
// surface as a 500 from whichever query first met it.
//
// Refuses JSON bodies nested deeper than MAX_JSON_DEPTH too, before they are parsed (lib/json-depth.ts):
// every later walk over a body (this guard, the idempotency hash, validation) may then recurse safely.
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors';
import { jsonDeeperThan, MAX_JSON_DEPTH } from '../lib/json-depth';
import { listOf } from '../lib/one-or-many';

const nulRefusal = (field: string) =>
  new ApiError(400, 'invalid', 'Text may not contain NUL characters', {
    errors: [{ field, message: 'Text may not contain NUL characters' }],
  });

const tooDeep = () =>
  new ApiError(400, 'invalid', `JSON may nest at most ${MAX_JSON_DEPTH} levels`, {
    errors: [{ field: 'body', message: `JSON may nest at most ${MAX_JSON_DEPTH} levels` }],
  });

/**
 * The dotted path of the first string holding a NUL, or null. A loop over a stack, not recursion:
 * it must hold even for a value that did not come through the JSON parser above.
 */
function findNul(body: unknown): string | null {
  const stack: [unknown, string][] = [[body, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (value !== null && typeof value === 'object') {
      // Reversed, so the first field is checked first.
      for (const [k, v] of Object.entries(value).reverse()) stack.push([v, path ? `${path}.${k}` : k]);
    }
  }
  return null;
}

export default fp(
  async function inputGuard(app: FastifyInstance) {
    // Fastify's own JSON parser (prototype-poisoning checks and all), behind the depth check. Added at
    // the root, so every route's scope inherits it (the Stripe webhook replaces all parsers with its own).
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (jsonDeeperThan(body as string)) return done(tooDeep(), undefined);
      parseJson(request, body as string, done);
    });
    // Callback hooks: every request passes them and almost none is refused.
    app.addHook('onRequest', (request, _reply, done) => {
      if (!/%00/i.test(request.url)) return done();
      done(nulRefusal(request.url.includes('?') && /%00/i.test(request.url.split('?')[1]) ? 'query' : 'path'));
    });
    const bodyGuard: preValidationHookHandler = (request, _reply, done) => {
      if (request.body === undefined || request.body === null || typeof request.body !== 'object') return done();
      const field = findNul(request.body);
      done(field === null ? undefined : nulRefusal(field || 'body'));
    };
    // Only where a body can come: Fastify never reads one for GET and HEAD, the most frequent calls.
    app.addHook('onRoute', (route) => {
      if (listOf(route.method).every((m) => m === 'GET' || m === 'HEAD')) return;
      route.preValidation = [bodyGuard, ...listOf(route.preValidation)];
    });
  },
  { name: 'input-guard' },
);
