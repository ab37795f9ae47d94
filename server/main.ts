// Entry point: `npm run serve` / `npm start` (compiled to dist-server/main.js). Serves the built
// PWA and the API on one port and shuts down gracefully on SIGTERM or SIGINT: it stops accepting,
// lets requests in flight and the worker's current pass finish, closes the database and exits 0.
// First: V8's settings must be in place before the app's modules allocate anything.
import './lib/v8-flags';
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
const output = nonBlockingOutput(1);
const app = await buildApp(config, { logStream: output });
/** Exits once the queued log lines are out, or after `flushMs` at most: a stuck stdout waits for nobody. */
const exit = (code: number, flushMs: number) => void output.flush(flushMs).then(() => process.exit(code));

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A repeat is not a reason to cut requests off: Ctrl-C under `npm run` delivers SIGINT twice
    // (from the terminal and forwarded by npm). SHUTDOWN_TIMEOUT_MS bounds the wait instead.
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    // The last part of SHUTDOWN_TIMEOUT_MS is left for writing out the log, so the process is gone by then.
    const flushMs = Math.min(500, Math.floor(config.shutdownTimeoutMs / 10));
    const deadline = Date.now() + config.shutdownTimeoutMs - flushMs;
    setTimeout(() => {
      app.log.error(`still closing after ${config.shutdownTimeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting anyway`);
      exit(1, flushMs);
    }, config.shutdownTimeoutMs - flushMs).unref();
    app.close().then(
      () => exit(0, Math.max(0, deadline - Date.now()) + flushMs),
      (err) => {
        app.log.error({ err }, 'closing failed');
        exit(1, flushMs);
      },
    );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.appName} on ${config.appUrl} (${app.dialect}); API docs at ${config.appUrl}/api/docs`);
} catch (err) {
  app.log.error(err);
  exit(1, 2000);
}
