// Verified follows (decisions §14, a Deviation from §7's trusted click): with a channel or the
// Discord server configured, its follow quest pays only when Telegram (`getChatMember`) or Discord
// (the guild member call, with the player's own token) says the player's linked account is in it.
// Each check is counted in `pxt_follow_checks_total` by network and result. A network that does not
// answer is a 503 that pays nothing and asks to try again, never a 500.
import type { FastifyInstance } from 'fastify';
import { GrammyError } from 'grammy';
import type { SocialNetwork } from '@shared/tasks';
import { taskMessageRu } from '@shared/task-messages';
import type { Tx } from '../db/schema';
import { ApiError } from '../lib/errors';
import type { FollowCheckResult } from '../lib/metrics';
import { DiscordDown, discordMembership, openDiscordToken } from './discord';
import { refuseTask } from './quests';
import type { User } from './users';

/** Seconds the 503 asks the client to wait. */
const RETRY_AFTER_SECONDS = 60;

export const checkUnavailable = () =>
  new ApiError(503, 'check_unavailable', taskMessageRu('check_unavailable'), {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });

function channelOf(app: FastifyInstance, network: SocialNetwork): string | null {
  const channels = app.telegram?.settings.channels;
  if (!channels) return null;
  if (network === 'telegram_ru') return channels.ru;
  if (network === 'telegram_eng') return channels.en;
  return null;
}

/** Whether this server checks the follow of `network` instead of trusting the click. */
export function followVerified(app: FastifyInstance, network: SocialNetwork): boolean {
  return network === 'discord' ? app.config.discord !== null : channelOf(app, network) !== null;
}

// Bot API statuses of someone in the channel; `restricted` counts only with is_member.
const IN_CHANNEL = new Set(['creator', 'administrator', 'member']);

async function telegramCheck(app: FastifyInstance, user: User, network: SocialNetwork): Promise<FollowCheckResult> {
  const telegram = app.telegram!;
  const channel = channelOf(app, network)!;
  if (!user.telegram_id) return 'not_linked';
  try {
    const member = await telegram.api.getChatMember(
      channel,
      Number(user.telegram_id),
      AbortSignal.timeout(telegram.settings.timeoutMs),
    );
    if (IN_CHANNEL.has(member.status)) return 'member';
    return member.status === 'restricted' && member.is_member ? 'member' : 'not_member';
  } catch (err) {
    // A user or member Telegram cannot show (never contacted, never joined, a deleted account) is not
    // in the channel; anything else (chat not found: the bot is no administrator there; 429; 5xx; a
    // timeout) is Telegram not answering the question.
    if (
      err instanceof GrammyError &&
      err.error_code === 400 &&
      /user not found|member not found|PARTICIPANT_ID_INVALID/i.test(err.description)
    )
      return 'not_member';
    app.log.warn({ err, network }, 'telegram membership check failed');
    return 'error';
  }
}

async function discordCheck(app: FastifyInstance, user: User): Promise<FollowCheckResult> {
  const settings = app.config.discord!;
  if (!user.discord_id || !user.discord_token) return 'not_linked';
  const expired = user.discord_token_expires_at !== null && Number(user.discord_token_expires_at) <= Date.now();
  const token = expired ? null : openDiscordToken(settings, user.discord_token);
  if (!token) return 'not_linked';
  try {
    const answer = await discordMembership(settings, token);
    if (answer !== 'unlinked') return answer;
    // Revoked on Discord's side: the player connects Discord again (the account stays linked).
    await app.db
      .updateTable('users')
      .set({ discord_token: null, discord_token_expires_at: null })
      .where('id', '=', user.id)
      .execute();
    return 'not_linked';
  } catch (err) {
    if (!(err instanceof DiscordDown)) throw err;
    app.log.warn({ why: err.why }, 'discord membership check failed');
    return 'error';
  }
}

/**
 * Asks Telegram or Discord whether the player is in; returns when they are, else throws 400
 * `telegram_not_linked` / `discord_not_linked` / `not_a_member`, or 503 `check_unavailable`.
 */
export async function requireMembership(app: FastifyInstance, user: User, network: SocialNetwork): Promise<void> {
  const result = network === 'discord' ? await discordCheck(app, user) : await telegramCheck(app, user, network);
  app.metrics.followChecks.inc({ network, result });
  if (result === 'member') return;
  if (result === 'error') throw checkUnavailable();
  if (result === 'not_member') throw refuseTask('not_a_member', undefined, { network });
  throw refuseTask(network === 'discord' ? 'discord_not_linked' : 'telegram_not_linked', undefined, { network });
}

/** The account a follow of `network` is checked with: the player's Telegram or Discord id, if linked. */
export const followAccountOf = (user: User, network: SocialNetwork): string | null =>
  network === 'discord' ? user.discord_id : user.telegram_id;

/**
 * Inside the paying transaction: notes `account` as paid for `network`'s follow to `userId`, and says
 * whether it is this player's to be paid (false: the account was paid to another player before, who
 * linked it then). The key (network, account) is unique, so concurrent players with one account are
 * paid once between them.
 */
export async function takeFollowAccount(trx: Tx, network: SocialNetwork, account: string, userId: number) {
  const taken = await trx
    .insertInto('follow_rewards')
    .values({ network, account_id: account, user_id: userId, paid_at: Date.now() })
    .onConflict((oc) => oc.columns(['network', 'account_id']).doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (taken) return true;
  // Noted before: this player's own earlier note, or another player's.
  const row = await trx
    .selectFrom('follow_rewards')
    .select('user_id')
    .where('network', '=', network)
    .where('account_id', '=', account)
    .executeTakeFirstOrThrow();
  return Number(row.user_id) === userId;
}
