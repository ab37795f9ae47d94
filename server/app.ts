// Builds the Fastify app: external plugins first, then the app's own services, then the routes.
// Tests build it with `buildApp` and `inject` requests; main.ts adds listening and shutdown.
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type pino from 'pino';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '@shared/constants';
import type { Config } from './config';
import type { Database } from './db/database';
import { requestSerializer } from './lib/log-redaction';
import { requestChildLogger } from './lib/request-log';
import { RequestLines } from './lib/request-lines';
import { responseSerializerCompiler } from './lib/response-serializer';
import { fastifyTrustProxy } from './lib/trust-proxy';
import afterReply from './plugins/after-reply';
import auth from './plugins/auth';
import configPlugin from './plugins/config';
import dbPlugin from './plugins/db';
import errorHandler from './plugins/error-handler';
import idempotency from './plugins/idempotency';
import keptSecrets from './plugins/kept-secrets';
import payments from './plugins/payments';
import inputGuard from './plugins/input-guard';
import metrics from './plugins/metrics';
import probes from './plugins/probes';
import rateLimits from './plugins/rate-limits';
import security from './plugins/security';
import shutdown from './plugins/shutdown';
import staticApp from './plugins/static-app';
import swagger from './plugins/swagger';
import telegram from './plugins/telegram';
import telegramBot from './plugins/telegram-bot';
import { apiRoutes } from './routes/index';
import { hashQueue } from './services/hash-queue';
import mailer from './services/mailer';
import accountCleanup from './workers/account-cleanup';
import miningWorker from './workers/mining-worker';
import paymentsWorker from './workers/payments-worker';
import pushReminders from './workers/push-reminders';
import telegramReminders from './workers/telegram-reminders';

export interface BuildOptions {
  /** Use this database instead of opening the one the config names. */
  database?: Database;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read it). */
  logStream?: { write(line: string): void };
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const requestLines = new RequestLines();
  const app = Fastify({
    // Request lines keep no mailed token (lib/log-redaction.ts).
    logger:
      opts.logger === false
        ? false
        : {
            level: config.logLevel,
            serializers: { req: requestSerializer },
            ...(opts.logStream ? { stream: opts.logStream } : {}),
          },
    // Each request's lines carry its Idempotency-Key, and the player once signed in (lib/request-log.ts).
    childLoggerFactory: requestChildLogger,
    logController: requestLines,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 64 * 1024,
    // A deadline for the whole request, body included (decisions §15): a client trickling its body
    // in a byte at a time gets a 408 instead of holding the connection. Node checks the deadline
    // every connectionsCheckingInterval (30 s by default): often enough for the setting to hold.
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(60_000, config.requestTimeoutMs),
      connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(config.requestTimeoutMs / 10))),
    },
    // plugins/shutdown.ts answers requests that arrive while closing, in the API's error shape.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    // Requests Fastify refuses before routing (a malformed URL, say) still get the API's error shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      reply.code(400).send({ detail: error.message, code: (error.code ?? 'bad_request').toLowerCase() });
    },
  }).withTypeProvider<ZodTypeProvider>();
  if (opts.logger !== false && opts.logStream) requestLines.attach(app.log as pino.Logger, opts.logStream);
  // The queue guards the process's thread pool, so the last app built in a process sets it.
  hashQueue.configure(config.hashQueue);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);

  await app.register(configPlugin, { config });
  await app.register(errorHandler);
  await app.register(shutdown);
  await app.register(inputGuard);
  await app.register(security);
  await app.register(swagger);
  await app.register(dbPlugin, { database: opts.database });
  // Before anything reads jwtSecret or the VAPID keys.
  await app.register(keptSecrets);
  await app.register(metrics);
  await app.register(mailer);
  await app.register(afterReply);
  await app.register(auth);
  // After auth: a signed-in call is counted per player.
  await app.register(rateLimits);
  await app.register(idempotency);
  await app.register(probes);
  await app.register(payments);
  await app.register(telegram);
  await app.register(telegramBot);
  await app.register(miningWorker);
  await app.register(paymentsWorker);
  await app.register(pushReminders);
  await app.register(telegramReminders);
  await app.register(accountCleanup);

  await app.register(apiRoutes, { prefix: API_BASE });
  await app.register(staticApp, { root: config.staticDir });
  return app;
}
