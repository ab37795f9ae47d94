// Graceful shutdown: once app.close() starts (SIGTERM in main.ts), new requests are refused with
// a 503 in the API's error shape, requests in flight finish, and Fastify stops listening but waits
// for every open connection to end. A keep-alive connection whose request was in flight at that
// moment would otherwise stay open until the client or the keep-alive timeout (72 s) ends it, and
// the process would not exit: every answer sent while closing carries `Connection: close`, and
// Node closes each such connection after its answer.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(
  async function shutdown(app: FastifyInstance) {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
      app.log.info('closing: new requests are refused, requests in flight finish');
    });
    // Instead of Fastify's own return503OnClosing (turned off in app.ts), whose body has another shape.
    // Callback hooks, not async ones: they run on every request and almost always do nothing.
    app.addHook('onRequest', (_request, reply, done) => {
      if (!closing) return done();
      reply
        .code(503)
        .header('retry-after', '1')
        .send({ detail: 'The server is restarting; try again.', code: 'shutting_down' });
    });
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (closing) reply.header('connection', 'close');
      done(null, payload);
    });
  },
  { name: 'shutdown' },
);
