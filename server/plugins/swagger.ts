// OpenAPI generated from the routes' zod schemas, browsable at /api/docs. Besides each 2xx answer
// the document lists every operation's error answers, security, Idempotency-Key header and
// validation rules, derived from the route's options (lib/openapi-answers.ts, decisions §15).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_ERROR_SCHEMA_NAME, apiDocTransform, apiErrorJsonSchema } from '../lib/openapi-answers';

export default fp(
  async function docs(app: FastifyInstance) {
    await app.register(swagger, {
      openapi: {
        info: {
          title: `${app.config.appName} API`,
          version: '1',
          description:
            'Every error answer has the shape `ApiError` (`{detail, code, errors?}`). A known path called with another method answers 405 `method_not_allowed` with `Allow`.',
        },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
          schemas: { [API_ERROR_SCHEMA_NAME]: apiErrorJsonSchema() },
        },
      },
      transform: apiDocTransform(app),
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'swagger', dependencies: ['config'] },
);
