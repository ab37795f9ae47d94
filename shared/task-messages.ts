// The task, referral-award and beta messages of spec §8. The server sends the Russian text in
// `detail` with a stable `code` (decisions §7); the client shows the text in the player's language
// by looking the code (or, from an older server, the Russian text) up here.
import type { Language } from './constants';
import { CATEGORY_REWARD_COINS } from './constants';

/** Quest categories as the completed-tasks response names them. */
export type TaskCategory = 'user_account_quests' | 'social_quests';
export const TASK_CATEGORIES: readonly TaskCategory[] = ['user_account_quests', 'social_quests'];

export const TASK_MESSAGE_CODES = [
  'wallet_not_added',
  'email_password_not_confirmed',
  'username_not_set',
  'reward_granted',
  'reward_already_granted',
  'request_failed',
  'beta_tasks_incomplete',
  'beta_already_applied',
  'beta_applied',
  'invalid_telegram_format',
  'invalid_discord_format',
  'invalid_email_format',
  'invalid_wallet_format',
  'database_error',
  'generic_error',
  'category_incomplete',
  'category_already_claimed',
  'category_reward_granted',
  'no_new_rewards',
  'referral_rewards_granted',
  'telegram_not_linked',
  'discord_not_linked',
  'not_a_member',
  'check_unavailable',
  'follow_already_rewarded',
] as const;
export type TaskMessageCode = (typeof TASK_MESSAGE_CODES)[number];

export interface TaskMessage {
  code: TaskMessageCode;
  /** Set for the messages that exist once per category (one code, two texts). */
  category?: TaskCategory;
  ru: string;
  en: string;
}

const CATEGORY_NAME: Record<TaskCategory, { ru: string; en: string }> = {
  user_account_quests: { ru: 'Задания аккаунта', en: 'User account quests' },
  social_quests: { ru: 'Социальные задания', en: 'Social quests' },
};

const perCategory = (
  code: TaskMessageCode,
  ru: (name: string) => string,
  en: (name: string) => string,
): TaskMessage[] =>
  TASK_CATEGORIES.map((category) => ({
    code,
    category,
    ru: ru(CATEGORY_NAME[category].ru),
    en: en(CATEGORY_NAME[category].en),
  }));

export const TASK_MESSAGES: readonly TaskMessage[] = [
  { code: 'wallet_not_added', ru: 'Кошелёк не добавлен', en: 'Wallet not added' },
  {
    code: 'email_password_not_confirmed',
    ru: 'Почта и пароль не подтверждены',
    en: 'Email and password not confirmed',
  },
  { code: 'username_not_set', ru: 'Никнейм не добавлен', en: 'Nickname not added' },
  { code: 'reward_granted', ru: 'Награда начислена', en: 'Reward granted' },
  { code: 'reward_already_granted', ru: 'Награда уже начислена', en: 'Reward already granted' },
  { code: 'request_failed', ru: 'Ошибка запроса', en: 'Request failed' },
  {
    code: 'beta_tasks_incomplete',
    ru: 'Не все обязательные задания выполнены для подачи заявки',
    en: 'Not all required tasks are completed for the application',
  },
  { code: 'beta_already_applied', ru: 'Заявка уже подана', en: 'Application has already been submitted' },
  {
    code: 'beta_applied',
    ru: 'Заявка на бета-тестирование принята',
    en: 'Your beta test application has been submitted',
  },
  {
    code: 'invalid_telegram_format',
    ru: 'Неверный формат имени пользователя Telegram',
    en: 'Invalid Telegram username format',
  },
  {
    code: 'invalid_discord_format',
    ru: 'Неверный формат имени пользователя Discord',
    en: 'Invalid Discord username format',
  },
  { code: 'invalid_email_format', ru: 'Неверный формат почты', en: 'Invalid email format' },
  { code: 'invalid_wallet_format', ru: 'Неверный формат адреса кошелька', en: 'Invalid wallet address format' },
  { code: 'database_error', ru: 'Ошибка базы данных, попробуйте позже', en: 'Database error, try again later' },
  { code: 'generic_error', ru: 'Произошла ошибка', en: 'Something went wrong' },
  ...perCategory(
    'category_incomplete',
    (n) => `Не все задания категории «${n}» выполнены`,
    (n) => `Not all '${n}' tasks are completed`,
  ),
  {
    code: 'category_already_claimed',
    ru: 'Награда за эту категорию уже получена',
    en: 'The reward for this category has already been claimed',
  },
  ...perCategory(
    'category_reward_granted',
    (n) => `Начислено ${CATEGORY_REWARD_COINS} монет за выполнение всех заданий категории «${n}»`,
    (n) => `${CATEGORY_REWARD_COINS} coins reward granted for completing all '${n}'`,
  ),
  // decisions §7 Deviation: the client says "Not enough referrals for new awards".
  { code: 'no_new_rewards', ru: 'Нет новых наград', en: 'Not enough referrals for new awards' },
  { code: 'referral_rewards_granted', ru: 'Награды за приглашения начислены', en: 'Referral awards granted' },
  // Verified follows (decisions §14): the quest card shows these as the step still to do.
  {
    code: 'telegram_not_linked',
    ru: 'Сначала подключите Telegram к аккаунту',
    en: 'Connect Telegram to your account first',
  },
  {
    code: 'discord_not_linked',
    ru: 'Сначала подключите Discord к аккаунту',
    en: 'Connect Discord to your account first',
  },
  {
    code: 'not_a_member',
    ru: 'Вы ещё не вступили: вступите и проверьте снова',
    en: 'You have not joined yet: join, then check again',
  },
  {
    code: 'check_unavailable',
    ru: 'Проверка сейчас недоступна, попробуйте через минуту',
    en: 'The check is unavailable right now. Try again in a minute',
  },
  {
    code: 'follow_already_rewarded',
    ru: 'Этот аккаунт уже получил награду в другом аккаунте PXT',
    en: 'This account has already earned this reward on another PXT account',
  },
];

/** The message of a code (and, for per-category codes, its category). */
export function taskMessage(code: TaskMessageCode, category?: TaskCategory): TaskMessage {
  const found = TASK_MESSAGES.find((m) => m.code === code && (m.category === undefined || m.category === category));
  if (!found) throw new Error(`no task message ${code}${category ? ` for ${category}` : ''}`);
  return found;
}

export const taskMessageRu = (code: TaskMessageCode, category?: TaskCategory) => taskMessage(code, category).ru;

/** The message whose Russian text the server sent, if it is one of ours. */
export const taskMessageByRu = (text: string) => TASK_MESSAGES.find((m) => m.ru === text);

/**
 * A task answer's text in the player's language: by code first, then by the Russian text; anything
 * else is shown as it came.
 */
export function localizeTaskDetail(lang: Language, detail: string, code?: string, category?: string): string {
  const byCode = TASK_MESSAGES.find((m) => m.code === code && (m.category === undefined || m.category === category));
  const message = byCode ?? taskMessageByRu(detail);
  return message ? message[lang] : detail;
}
