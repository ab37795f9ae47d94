// Entry point: `npm run serve` / `npm start` (compiled to dist-server/main.js). Serves the built
// PWA and the API on one port and shuts down gracefully on SIGTERM or SIGINT: it stops accepting,
// lets requests in flight and the worker's current pass finish, closes the database and exits 0.
import { buildApp } from './app';
import { loadConfig } from './config';
import { nonBlockingOutput } from './lib/log-output';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A setting the server refuses (TRUST_PROXY=true, say): the message is the whole story.
  console.error(`Configuration error: ${(err as Error).message}`);
  process.exit(1);
}
// Log lines never block the process (lib/log-output.ts): SIGTERM must work whatever stdout does.
const app = await buildApp(config, { logStream: nonBlockingOutput(1) });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A repeat is not a reason to cut requests off: Ctrl-C under `npm run` delivers SIGINT twice
    // (from the terminal and forwarded by npm). SHUTDOWN_TIMEOUT_MS bounds the wait instead.
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    setTimeout(() => {
      app.log.error(`still closing after ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting anyway`);
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'closing failed');
        process.exit(1);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.appName} on ${config.appUrl} (${app.dialect}); API docs at ${config.appUrl}/api/docs`);
} catch (err) {
  app.log.error(err);
  process.exit(1);
}
