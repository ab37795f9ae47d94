// The quest catalogue both sides agree on. The server reports task titles in Russian (as the spec
// says the client expects); `serverTitle` is that title, `key` is the client's own id for it.

export type SocialNetwork = 'telegram_ru' | 'telegram_eng' | 'discord';
export const SOCIAL_NETWORKS: readonly SocialNetwork[] = ['telegram_ru', 'telegram_eng', 'discord'];

export interface QuestDef {
  key: string;
  category: 'account' | 'social';
  serverTitle: string;
  coins: number;
  network?: SocialNetwork;
  /** Invite quests complete at this many referrals. */
  invites?: number;
}

export const INVITE_STEPS = [2, 4, 6, 10, 20, 40, 60, 80, 100] as const;

/** Russian plural of «пользователь» after a number: 2, 3, 4 (but not 12–14) take «пользователя». */
export function usersWordRu(n: number): string {
  const d10 = n % 10;
  const d100 = n % 100;
  if (d10 === 1 && d100 !== 11) return 'пользователя';
  if (d10 >= 2 && d10 <= 4 && (d100 < 12 || d100 > 14)) return 'пользователя';
  return 'пользователей';
}

export const inviteServerTitle = (n: number) => `Пригласить ${n} ${usersWordRu(n)}`;

export const ACCOUNT_QUESTS: readonly QuestDef[] = [
  { key: 'add_nickname', category: 'account', serverTitle: 'Добавить никнейм', coins: 5 },
  { key: 'connect_wallet', category: 'account', serverTitle: 'Подключить кошелёк', coins: 10 },
  { key: 'add_email_password', category: 'account', serverTitle: 'Добавить почту и пароль', coins: 10 },
];

export const SOCIAL_QUESTS: readonly QuestDef[] = [
  {
    key: 'telegram_ru',
    category: 'social',
    serverTitle: 'Подписаться на русский Telegram-канал',
    coins: 15,
    network: 'telegram_ru',
  },
  {
    key: 'telegram_eng',
    category: 'social',
    serverTitle: 'Подписаться на международный Telegram-канал',
    coins: 15,
    network: 'telegram_eng',
  },
  { key: 'discord', category: 'social', serverTitle: 'Вступить в сообщество Discord', coins: 15, network: 'discord' },
  ...INVITE_STEPS.map((n) => ({
    key: `invite_${n}`,
    category: 'social' as const,
    serverTitle: inviteServerTitle(n),
    coins: n * 2,
    invites: n,
  })),
];

export const ALL_QUESTS: readonly QuestDef[] = [...ACCOUNT_QUESTS, ...SOCIAL_QUESTS];

export const questByServerTitle = (title: string) => ALL_QUESTS.find((q) => q.serverTitle === title);
export const questByKey = (key: string) => ALL_QUESTS.find((q) => q.key === key);

/** Referral awards (spec §3): friends, points, threshold as the spec lists them. */
export const REFERRAL_AWARDS = INVITE_STEPS.map((friends) => ({
  friends,
  points: friends * 2,
  threshold: ({ 2: 5, 4: 15, 6: 50 } as Record<number, number>)[friends] ?? 100,
}));

/** The 9 tasks a beta application needs: account quests, social follows, first 3 invite quests. */
export const BETA_REQUIRED_KEYS = [
  'add_nickname',
  'connect_wallet',
  'add_email_password',
  'telegram_ru',
  'telegram_eng',
  'discord',
  'invite_2',
  'invite_4',
  'invite_6',
] as const;
