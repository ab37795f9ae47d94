// The yardsticks of the API figures: a bare Fastify with one route answering a small JSON of the
// size and shape of /auth/me's, no plugins, no database; and, given the app's database, the limit
// routes (bench/limit-routes.ts). Started by bench/api.ts as a child process exactly like the real
// server (PORT, HOST from the environment).
// The same V8 settings as the app's process (server/main.ts), so the yardstick runs as the app does.
import '../server/lib/v8-flags';
import Fastify from 'fastify';
import { registerLimitRoutes } from './limit-routes';

const app = Fastify({ logger: false });
const body = {
  username: 'bench_player',
  email: '',
  wallet_address: '',
  balance: 0,
  token: 8,
  gems: 0,
  referral_link: 'http://localhost:8080/?refCode=abcdefgh',
  password_set: false,
  mining: false,
  ico: false,
  language: false,
};
app.get('/bare', async () => body);
if (process.env.LIMIT_DATABASE) {
  registerLimitRoutes(app, {
    databaseFile: process.env.LIMIT_DATABASE,
    jwtSecret: process.env.JWT_SECRET ?? '',
    appUrl: process.env.APP_URL ?? '',
  });
}
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
