// Graceful shutdown: once app.close() starts (SIGTERM in main.ts), Fastify answers new requests
// 503 and stops listening, but waits for every open connection to end. A keep-alive connection
// whose request was in flight at that moment would otherwise stay open until the client or the
// keep-alive timeout (72 s) ends it, so the process would not exit: answers sent while closing
// carry `Connection: close`, and Node closes each such connection after its answer.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export default fp(
  async function shutdown(app: FastifyInstance) {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
      app.log.info('closing: new requests are refused, requests in flight finish');
    });
    app.addHook('onSend', async (_request, reply) => {
      if (closing) reply.header('connection', 'close');
    });
  },
  { name: 'shutdown' },
);
