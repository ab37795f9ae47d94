// Every number the interface puts next to a noun takes the noun's plural form (issue 24: «2 активных
// друзей (+4 монет)», «+1 бустов», "+1 referral boosts"). The shipped translation files are rendered
// by i18next itself (plural keys `_one`/`_few`/`_many`/`_other` chosen by Intl.PluralRules, and the
// `$t(common:units.…)` nesting of texts with two counts) for 1, 2, 5, 11, 21 and 22, and each
// rendering must hold the number followed by the word the table below expects.
import type { i18n } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { keys, load, namespaces, shippedI18n } from './locale-helpers';

const COUNTS = [1, 2, 5, 11, 21, 22] as const;
type Count = (typeof COUNTS)[number];
type Words = Record<Count, string>;

/** English: one thing at 1, many otherwise. */
const en = (one: string, other: string): Words => ({ 1: one, 2: other, 5: other, 11: other, 21: other, 22: other });
/** Russian: 1 and 21 take «один» form, 2 and 22 «два», 5 and 11 «пять». */
const ru = (one: string, few: string, many: string): Words => ({ 1: one, 2: few, 5: many, 11: many, 21: one, 22: few });

const COINS = { en: en('coin', 'coins'), ru: ru('монета', 'монеты', 'монет') };
const GEMS = { en: en('Gem', 'Gems'), ru: ru('гем', 'гема', 'гемов') };
/** «из N гемов»: the genitive after «из» and «оплата». */
const GEMS_OF = { en: en('Gem', 'Gems'), ru: ru('гема', 'гемов', 'гемов') };
const DAYS = { en: en('day', 'days'), ru: ru('день', 'дня', 'дней') };
const HOURS = { en: en('hour', 'hours'), ru: ru('час', 'часа', 'часов') };
const BOOSTS = { en: en('boost', 'boosts'), ru: ru('буст', 'буста', 'бустов') };
const REFERRAL_BOOSTS = {
  en: en('referral boost', 'referral boosts'),
  ru: ru('буст за рефералов', 'буста за рефералов', 'бустов за рефералов'),
};
/** «2 активных друга» (subject) … */
const ACTIVE_FRIENDS = {
  en: en('active friend', 'active friends'),
  ru: ru('активный друг', 'активных друга', 'активных друзей'),
};
/** … and «за / из 2 активных друзей» (after a preposition or a verb). */
const ACTIVE_FRIENDS_OF = {
  en: en('active friend', 'active friends'),
  ru: ru('активного друга', 'активных друзей', 'активных друзей'),
};
const FRIENDS_OF = { en: en('friend', 'friends'), ru: ru('друга', 'друзей', 'друзей') };

interface Case {
  key: string;
  /** The values the component passes, with `n` where the counted number goes. */
  values: (n: number) => Record<string, unknown>;
  words: { en: Words; ru: Words }[];
}

const CASES: Case[] = [
  { key: 'common:referralBoostHint.text', values: (n) => ({ count: n, percent: n * 10 }), words: [ACTIVE_FRIENDS_OF] },
  { key: 'mining:rate.percentCount', values: (n) => ({ count: n, percent: n * 5 }), words: [BOOSTS] },
  { key: 'mining:boosts.count', values: (n) => ({ count: n }), words: [BOOSTS] },
  { key: 'mining:boosts.referrals.claimed', values: (n) => ({ added: n, percent: 30 }), words: [REFERRAL_BOOSTS] },
  { key: 'mining:boosts.referrals.waiting', values: (n) => ({ count: n, percent: 10 }), words: [ACTIVE_FRIENDS_OF] },
  { key: 'mining:guide.steps.1.text', values: (n) => ({ hours: n }), words: [HOURS] },
  { key: 'mining:guide.steps.5.text', values: (n) => ({ price: n, days: n }), words: [GEMS, DAYS] },
  { key: 'mining:auto.inactive', values: (n) => ({ price: n, days: n }), words: [GEMS, DAYS] },
  { key: 'mining:autoMiner.price', values: (n) => ({ price: n }), words: [GEMS] },
  { key: 'mining:autoMiner.period', values: (n) => ({ days: n }), words: [DAYS] },
  { key: 'mining:autoMiner.extends', values: (n) => ({ date: '1.1', days: n }), words: [DAYS] },
  { key: 'mining:autoMiner.buyMissing', values: (n) => ({ count: n, gems: n }), words: [GEMS] },
  { key: 'mining:autoMiner.buyHint', values: (n) => ({ quantity: 3, item: n }), words: [GEMS_OF] },
  { key: 'mining:autoMiner.progress', values: (n) => ({ gems: 0, price: n, missing: n }), words: [GEMS_OF] },
  { key: 'mining:shop.price', values: (n) => ({ price: n }), words: [GEMS] },
  { key: 'mining:shop.buyLabel', values: (n) => ({ hours: 4, price: n }), words: [GEMS] },
  { key: 'mining:subscription.priceValue', values: (n) => ({ price: n }), words: [GEMS] },
  { key: 'landing:mining.step2', values: (n) => ({ hours: n }), words: [HOURS] },
  { key: 'landing:loop.questsText', values: (n) => ({ percent: 5, bonus: n }), words: [COINS] },
  { key: 'landing:loop.autoText', values: (n) => ({ price: n }), words: [GEMS] },
  { key: 'referrals:awards.invite', values: (n) => ({ count: n }), words: [FRIENDS_OF] },
  { key: 'referrals:awards.paid', values: (n) => ({ text: 'OK', coins: n }), words: [COINS] },
  {
    key: 'referrals:awards.next',
    values: (n) => ({ count: 0, target: n, coins: n }),
    words: [ACTIVE_FRIENDS_OF, COINS],
  },
  { key: 'tasks:quest.earned', values: (n) => ({ text: 'OK', coins: n }), words: [COINS] },
  { key: 'tasks:quest.invite.progress', values: (n) => ({ count: 0, target: n }), words: [FRIENDS_OF] },
  { key: 'tasks:category.reward', values: (n) => ({ coins: n }), words: [COINS] },
  { key: 'tasks:detail.text', values: (n) => ({ date: '1.1', coins: n }), words: [COINS] },
  { key: 'tasks:autoChecked', values: (n) => ({ coins: n }), words: [COINS] },
  { key: 'tasks:invites.next', values: (n) => ({ target: n, coins: n }), words: [ACTIVE_FRIENDS, COINS] },
  { key: 'mining:topUp.item', values: (n) => ({ gems: n }), words: [GEMS] },
  { key: 'mining:topUp.total', values: (n) => ({ gems: n, price: '$1.00' }), words: [GEMS] },
  { key: 'mining:topUp.quantityOption', values: (n) => ({ n: 3, item: n }), words: [GEMS] },
  { key: 'mining:topUp.paid', values: (n) => ({ gems: n, balanceCount: n }), words: [GEMS] },
  { key: 'mining:topUp.order.awaitingWallet', values: (n) => ({ id: 7, gems: n, amount: '1' }), words: [GEMS] },
  { key: 'mining:topUp.order.paid', values: (n) => ({ id: 7, gems: n, balanceCount: n }), words: [GEMS] },
  { key: 'mining:topUp.order.paidGems', values: (n) => ({ id: 7, gems: n }), words: [GEMS] },
  {
    key: 'mining:topUp.order.autoMinerTook',
    values: (n) => ({ price: n, date: '1.1', balanceCount: n }),
    words: [GEMS],
  },
  { key: 'profile:actions.walletQuestPaid', values: (n) => ({ coins: n }), words: [COINS] },
];

const PLURAL_KEY = /_(zero|one|two|few|many|other)$/;
/** A {{number}} followed by a noun that changes with the number, in either language. */
const COUNTED_NOUN =
  /\{\{\w+\}\}\s(coins?|gems?|friends?|active friends?|boosts?|referral boosts?|days?|hours?|confirmations?|монет|гем|друз|друг|активн|буст|дн|день|час|подтвержден)/i;
/**
 * Texts left as they are, and why: `guide.steps.3` names a list of hours ending in 12 («1, 4, 6 или
 * 12 часов»); `loop.boostsText` is a multiplier (×2), not a count.
 */
const UNCOUNTED = ['mining:guide.steps.3.', 'landing:loop.boostsText'];
const pick = (data: Record<string, unknown>, key: string) =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], data);

let i18n: i18n;

beforeAll(async () => {
  i18n = await shippedI18n();
});

/** `n word` (a space or a no-break space between), the number standing alone and the word not the start of a longer one. */
const holds = (text: string, n: number, word: string) =>
  new RegExp(`(^|[^\\d])${n}\\s${word}(?![A-Za-zА-Яа-яЁё])`).test(text);

describe('counted words', () => {
  describe.each(['en', 'ru'] as const)('%s', (lng) => {
    it.each(CASES)('$key', ({ key, values, words }) => {
      const wrong: string[] = [];
      for (const n of COUNTS) {
        const text = i18n.t(key, { ...values(n), lng });
        if (text === key.split(':')[1] || /\$t\(|\{\{/.test(text)) wrong.push(`${n}: not rendered: ${text}`);
        for (const table of words) {
          const word = table[lng][n];
          if (!holds(text, n, word)) wrong.push(`${n}: expected «${n} ${word}» in «${text}»`);
        }
      }
      expect(wrong).toEqual([]);
    });
  });

  it('leave no number before a counted noun in a text without plural forms', () => {
    const found = (['en', 'ru'] as const).flatMap((lng) =>
      namespaces(lng).flatMap((ns) => {
        const data = load(lng, ns);
        return keys(data)
          .filter((key) => !PLURAL_KEY.test(key) && !UNCOUNTED.some((prefix) => `${ns}:${key}`.startsWith(prefix)))
          .map((key) => ({ where: `${lng} ${ns}:${key}`, text: String(pick(data, key)).replace(/\$t\([^)]*\)/g, '') }))
          .filter(({ text }) => COUNTED_NOUN.test(text))
          .map(({ where, text }) => `${where}: ${text}`);
      }),
    );
    expect(found).toEqual([]);
  });

  it('the word check itself: it wants the number followed by the whole word', () => {
    expect(holds('Пригласить 21 друга', 21, 'друга')).toBe(true);
    expect(holds('Пригласить 21 друзей', 21, 'друга')).toBe(false);
    expect(holds('+1 бустов', 1, 'буст')).toBe(false);
    expect(holds('121 coin', 21, 'coin')).toBe(false);
  });
});
