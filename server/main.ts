// Entry point: `npm run serve` / `npm start`. Serves the built PWA and the API on one port and
// shuts down gracefully, finishing requests in flight.
import { buildApp } from './app';
import { loadConfig } from './config';

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  // A setting the server refuses (TRUST_PROXY=true, say): the message is the whole story.
  console.error(`Configuration error: ${(err as Error).message}`);
  process.exit(1);
}
const app = await buildApp(config);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) process.exit(1);
    closing = true;
    app.log.info(`${signal}: closing`);
    app.close().then(() => process.exit(0), () => process.exit(1));
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.appName} on ${config.appUrl} (${app.dialect}); API docs at ${config.appUrl}/api/docs`);
} catch (err) {
  app.log.error(err);
  process.exit(1);
}
