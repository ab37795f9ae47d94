// A known path called with another method (decisions §15): Fastify's router finds no route for the
// pair and calls the not-found handler, which asks the router, method by method, whether the path
// exists at all. The app's catch-all file route (`/*`, plugins/static-app.ts) does not count: it
// would make every path "known".
import type { FastifyInstance, HTTPMethods } from 'fastify';

const METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** The methods that have a route for this URL (empty: the path is unknown). */
export function allowedMethods(app: FastifyInstance, url: string): HTTPMethods[] {
  return METHODS.filter((method) => {
    try {
      const found = app.findRoute({ method, url });
      return found !== null && (found.params as Record<string, string> | undefined)?.['*'] === undefined;
    } catch {
      return false;
    }
  });
}
