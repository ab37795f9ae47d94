// Builds the Fastify app: external plugins first, then the app's own services, then the routes.
// Tests build it with `buildApp` and `inject` requests; main.ts adds listening and shutdown.
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { API_BASE } from '../shared/constants';
import type { Config } from './config';
import type { Database } from './db/database';
import auth from './plugins/auth';
import configPlugin from './plugins/config';
import dbPlugin from './plugins/db';
import errorHandler from './plugins/error-handler';
import idempotency from './plugins/idempotency';
import security from './plugins/security';
import staticApp from './plugins/static-app';
import swagger from './plugins/swagger';
import { apiRoutes } from './routes/index';
import miningWorker from './workers/mining-worker';
import pushReminders from './workers/push-reminders';

export interface BuildOptions {
  /** Use this database instead of opening the one the config names. */
  database?: Database;
  logger?: boolean;
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel },
    trustProxy: true,
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 300 },
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(configPlugin, { config });
  await app.register(errorHandler);
  await app.register(security);
  await app.register(swagger);
  await app.register(dbPlugin, { database: opts.database });
  await app.register(auth);
  await app.register(idempotency);
  await app.register(miningWorker);
  await app.register(pushReminders);

  await app.register(apiRoutes, { prefix: API_BASE });
  await app.register(staticApp, { root: config.staticDir });
  return app;
}
