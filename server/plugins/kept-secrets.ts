// On PostgreSQL, the secrets the environment does not give come from the database (decisions §15,
// lib/kept-secrets-db.ts): filled into app.config once the database is open and migrated, before
// auth, idempotency and push read them.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { keptSecretsInDatabase } from '../lib/kept-secrets-db';

export default fp(
  async function keptSecrets(app: FastifyInstance) {
    const { config } = app;
    if (config.secretsKeptIn !== 'database') return;
    const kept = await keptSecretsInDatabase(app.db, config.dataDir);
    if (!config.jwtSecret) config.jwtSecret = kept.jwt;
    if (!config.vapid.publicKey) config.vapid = { ...kept.vapid, subject: config.vapid.subject };
  },
  { name: 'kept-secrets', dependencies: ['config', 'db'] },
);
