// Every /auth/* call of spec §7 and decisions §13, split by concern.
import type { FastifyInstance } from 'fastify';
import discord from './discord';
import email from './email';
import emailChange from './email-change';
import google from './google';
import me from './me';
import methods from './methods';
import password from './password';
import sessions from './sessions';
import telegram from './telegram';
import tokens from './tokens';
import wallet from './wallet';

export default async function authRoutes(app: FastifyInstance) {
  await app.register(email);
  await app.register(emailChange);
  await app.register(password);
  await app.register(wallet);
  await app.register(google);
  await app.register(telegram);
  await app.register(discord);
  await app.register(tokens);
  await app.register(me);
  await app.register(methods);
  await app.register(sessions);
}
