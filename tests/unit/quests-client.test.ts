// Pure rules of the quests page: completion by server title, category rewards, message texts and
// the beta application's field errors.
import { describe, expect, it } from 'vitest';
import type { CompletedTasks } from '@shared/api/tasks';
import { taskMessage } from '@shared/task-messages';
import { QUEST_COUNT } from '@shared/constants';
import { ACCOUNT_QUESTS, ALL_QUESTS, inviteServerTitle, SOCIAL_QUESTS } from '@shared/tasks';
import { betaFieldCodes, betaSubmitError } from '@/features/tasks/state/beta-form';
import { categoryClaimed, categoryReady } from '@/features/tasks/state/category-rewards';
import { completedTitles, metAccountQuests, questLists } from '@/features/tasks/state/quest-list';
import {
  isAlreadyClaimed,
  taskAnswerText,
  taskBoostCode,
  taskBoostFailureText,
  taskFailureText,
} from '@/features/tasks/state/task-text';
import { type ApiFailure, toApiFailure } from '@/lib/api-errors';

const task = (title: string, id = 1) => ({
  id,
  task_title: title,
  completed_at: '2025-01-01T00:00:00.000Z',
  reward: 5,
});

function answer(
  titles: string[],
  counts = { user_account_quests: 0, social_quests: 0 },
  finished = { account: false, social: false },
): CompletedTasks {
  return {
    completed_tasks: titles.map((t, i) => task(t, i + 1)),
    category_completion_counts: counts,
    total_completed: titles.length,
    finished_user_account_quest: finished.account,
    finished_social_quest: finished.social,
  };
}

/** A failure as the API client reports an answer with this status and body (an ofetch FetchError). */
const failure = (body: Record<string, unknown>, status = 400): ApiFailure =>
  toApiFailure({ status, response: { status }, data: body }, 'fallback');
const network: ApiFailure = toApiFailure(new TypeError(''), 'fallback');

describe('quest list', () => {
  it('has the 3 account quests (5, 10, 10 coins) and the 12 social entries', () => {
    const lists = questLists(null, 0);
    expect(lists.account.map((q) => q.def.coins)).toEqual([5, 10, 10]);
    expect(lists.social).toHaveLength(12);
    expect(lists.social.slice(0, 3).map((q) => [q.network, q.def.coins])).toEqual([
      ['telegram_ru', 15],
      ['telegram_eng', 15],
      ['discord', 15],
    ]);
    expect(lists.social.slice(3).map((q) => [q.def.invites, q.def.coins])).toEqual([
      [2, 4],
      [4, 8],
      [6, 12],
      [10, 20],
      [20, 40],
      [40, 80],
      [60, 120],
      [80, 160],
      [100, 200],
    ]);
    expect([...lists.account, ...lists.social].every((q) => !q.completed)).toBe(true);
  });

  it('marks a quest completed only when its own Russian server title is reported', () => {
    const lists = questLists(
      answer(['Добавить никнейм', 'Вступить в сообщество Discord', 'Add a nickname', 'Пригласить 4 пользователя']),
      0,
    );
    const done = [...lists.account, ...lists.social].filter((q) => q.completed).map((q) => q.def.key);
    expect(done).toEqual(['add_nickname', 'discord', 'invite_4']);
  });

  it('maps each local quest to exactly one server title', () => {
    const titles = [...ACCOUNT_QUESTS, ...SOCIAL_QUESTS].map((q) => q.serverTitle);
    expect(new Set(titles).size).toBe(15);
    for (const q of [...ACCOUNT_QUESTS, ...SOCIAL_QUESTS]) {
      const lists = questLists(answer([q.serverTitle]), 0);
      expect([...lists.account, ...lists.social].filter((v) => v.completed).map((v) => v.def.key)).toEqual([q.key]);
    }
  });

  it('reads no titles from a missing answer', () => {
    expect(completedTitles(undefined).size).toBe(0);
    expect(completedTitles(answer([inviteServerTitle(2)])).has('Пригласить 2 пользователя')).toBe(true);
  });

  it('gives invite quests their progress and a claim once reached and not yet paid', () => {
    const lists = questLists(answer([inviteServerTitle(2)]), 5);
    const byFriends = Object.fromEntries(lists.social.filter((q) => q.progress).map((q) => [q.def.invites, q]));
    expect(byFriends[2]).toMatchObject({ completed: true, claimable: false, progress: { count: 2, target: 2 } });
    expect(byFriends[4]).toMatchObject({ completed: false, claimable: true, progress: { count: 4, target: 4 } });
    expect(byFriends[6]).toMatchObject({ completed: false, claimable: false, progress: { count: 5, target: 6 } });
    expect(lists.social[0].claimable).toBe(false);
  });
});

describe('category rewards', () => {
  it('account: claimed when the count is 3 and the finished flag is set', () => {
    expect(
      categoryClaimed(
        answer([], { user_account_quests: 3, social_quests: 0 }, { account: true, social: false }),
        'user_account_quests',
      ),
    ).toBe(true);
    expect(
      categoryClaimed(
        answer([], { user_account_quests: 3, social_quests: 0 }, { account: false, social: false }),
        'user_account_quests',
      ),
    ).toBe(false);
    expect(
      categoryClaimed(
        answer([], { user_account_quests: 2, social_quests: 0 }, { account: true, social: false }),
        'user_account_quests',
      ),
    ).toBe(false);
  });

  it('social: claimed when the count is 6 or more and the finished flag is set', () => {
    const flagged = (n: number) =>
      answer([], { user_account_quests: 0, social_quests: n }, { account: false, social: true });
    expect(categoryClaimed(flagged(5), 'social_quests')).toBe(false);
    expect(categoryClaimed(flagged(6), 'social_quests')).toBe(true);
    expect(categoryClaimed(flagged(9), 'social_quests')).toBe(true);
    expect(categoryClaimed(answer([], { user_account_quests: 0, social_quests: 9 }), 'social_quests')).toBe(false);
  });

  it("an 'already claimed' answer marks it claimed whatever the counts say", () => {
    expect(categoryClaimed(null, 'social_quests', true)).toBe(true);
    expect(categoryClaimed(answer([]), 'user_account_quests', true)).toBe(true);
    expect(
      isAlreadyClaimed(failure({ detail: 'Награда за эту категорию уже получена', code: 'category_already_claimed' })),
    ).toBe(true);
    expect(isAlreadyClaimed(failure({ detail: 'Награда за эту категорию уже получена' }))).toBe(true);
    expect(isAlreadyClaimed(failure({ detail: 'Награда уже начислена', code: 'reward_already_granted' }))).toBe(false);
  });

  it('is ready to claim at 3 account quests and at 6 social quests', () => {
    expect(categoryReady(answer([], { user_account_quests: 2, social_quests: 6 }), 'user_account_quests')).toBe(false);
    expect(categoryReady(answer([], { user_account_quests: 3, social_quests: 6 }), 'user_account_quests')).toBe(true);
    expect(categoryReady(answer([], { user_account_quests: 3, social_quests: 5 }), 'social_quests')).toBe(false);
    expect(categoryReady(undefined, 'social_quests')).toBe(false);
  });
});

describe('task messages on the page', () => {
  it('shows server answers in the player language by code, per category', () => {
    const granted = {
      detail: 'Начислено 100 монет за выполнение всех заданий категории «Социальные задания»',
      code: 'category_reward_granted',
      category: 'social_quests',
    };
    expect(taskAnswerText('en', granted)).toBe("100 coins reward granted for completing all 'Social quests'");
    expect(taskAnswerText('ru', granted)).toBe(granted.detail);
  });

  it('shows refusals translated, unknown server text as it came, and the fallback without a server text', () => {
    expect(
      taskFailureText('en', failure({ detail: 'Кошелёк не добавлен', code: 'wallet_not_added' }), 'Request failed'),
    ).toBe('Wallet not added');
    expect(
      taskFailureText(
        'en',
        failure({
          detail: 'Не все задания категории «Задания аккаунта» выполнены',
          code: 'category_incomplete',
          category: 'user_account_quests',
        }),
        'Request failed',
      ),
    ).toBe("Not all 'User account quests' tasks are completed");
    expect(taskFailureText('ru', failure({ detail: 'Почта и пароль не подтверждены' }), 'x')).toBe(
      'Почта и пароль не подтверждены',
    );
    expect(
      taskFailureText(
        'en',
        failure({ detail: 'Too many attempts. Try again in 3 seconds.', code: 'throttled' }),
        'Request failed',
      ),
    ).toBe('Too many attempts. Try again in 3 seconds.');
    expect(taskFailureText('en', network, 'Request failed')).toBe('Request failed');
  });

  it('task boost: known codes, then the task_title error, detail, the body as JSON, else the default', () => {
    expect(taskBoostCode(failure({ detail: 'Task is not completed yet', code: 'task_not_completed' }))).toBe(
      'task_not_completed',
    );
    expect(taskBoostCode(failure({ detail: 'x', code: 'other' }))).toBeNull();
    expect(
      taskBoostFailureText(
        failure({
          detail: 'Invalid request',
          code: 'invalid',
          errors: [{ field: 'task_title', message: 'Unknown task' }],
        }),
        'Failed to get task boost',
      ),
    ).toBe('Unknown task');
    expect(taskBoostFailureText(failure({ detail: 'Nope', code: 'x' }), 'Failed to get task boost')).toBe('Nope');
    expect(taskBoostFailureText(failure({ code: 'odd' }), 'Failed to get task boost')).toBe('{"code":"odd"}');
    expect(taskBoostFailureText(network, 'Failed to get task boost')).toBe('Failed to get task boost');
  });
});

describe('beta application form', () => {
  const good = {
    telegram: '@punk_rider',
    discord: 'punk.rider',
    email: 'rider@example.com',
    wallet: `0x${'a'.repeat(40)}`,
  };

  it('accepts what the server accepts and names each broken field', () => {
    expect(betaFieldCodes(good)).toEqual({});
    expect(betaFieldCodes({ telegram: '@ab', discord: 'x', email: 'nope', wallet: '0x12' })).toEqual({
      telegram: 'invalid_telegram_format',
      discord: 'invalid_discord_format',
      email: 'invalid_email_format',
      wallet: 'invalid_wallet_format',
    });
    expect(betaFieldCodes({ ...good, discord: 'Old Name#1234' })).toEqual({});
  });

  it("prefixes the server's field errors with 'Telegram: ', 'Discord: ', 'Email: ', 'Wallet: '", () => {
    const errors = [
      { field: 'telegram', message: taskMessage('invalid_telegram_format').ru },
      { field: 'wallet', message: taskMessage('invalid_wallet_format').ru },
    ];
    const shown = betaSubmitError(
      'en',
      failure({ detail: errors[0].message, code: 'invalid_telegram_format', errors }),
      'fallback',
    );
    expect(shown.fields).toEqual({
      telegram: 'Telegram: Invalid Telegram username format',
      wallet: 'Wallet: Invalid wallet address format',
    });
    const ru = betaSubmitError(
      'ru',
      failure({
        errors: [
          { field: 'discord', message: 'x' },
          { field: 'email', message: 'y' },
        ],
      }),
      'fallback',
    );
    expect(ru.fields).toEqual({ discord: 'Discord: x', email: 'Email: y' });
  });

  it('spec §8 order: the detail first, then the prefixed field errors, then the fallback', () => {
    const errors = [
      { field: 'telegram', message: taskMessage('invalid_telegram_format').ru },
      { field: 'wallet', message: taskMessage('invalid_wallet_format').ru },
    ];
    const withDetail = betaSubmitError(
      'en',
      failure({ detail: 'Application has already been submitted', code: 'beta_already_applied', errors }),
      'fallback',
    );
    expect(withDetail.message).toBe('Application has already been submitted');
    // The field lines still sit under their fields.
    expect(withDetail.fields).toEqual({
      telegram: 'Telegram: Invalid Telegram username format',
      wallet: 'Wallet: Invalid wallet address format',
    });
    expect(betaSubmitError('en', failure({ errors }), 'fallback').message).toBe(
      'Telegram: Invalid Telegram username format\nWallet: Invalid wallet address format',
    );
    expect(betaSubmitError('en', failure({ errors: [] }), 'fallback').message).toBe('fallback');
  });

  it('shows the detail otherwise, else the fallback', () => {
    const fallback = 'Failed to submit application for beta testing. Please try again later.';
    expect(
      betaSubmitError('en', failure({ detail: 'Заявка уже подана', code: 'beta_already_applied' }), fallback).message,
    ).toBe('Application has already been submitted');
    expect(betaSubmitError('en', network, fallback)).toEqual({ message: fallback, fields: {} });
    expect(betaSubmitError('en', failure({ detail: 'Internal Server Error' }, 500), fallback).message).toBe(fallback);
  });
});

describe('issue 16: fewer taps on the quests page', () => {
  it('checks on open only the account quests already met and not paid', () => {
    const user = { username: 'NeonRider', wallet_address: '', email: 'a@b.c', password_set: true };
    expect(metAccountQuests(user, new Set())).toEqual(['add_nickname', 'add_email_password']);
    expect(metAccountQuests(user, new Set(['Добавить никнейм']))).toEqual(['add_email_password']);
    expect(metAccountQuests({ ...user, wallet_address: '0xabc', password_set: false }, new Set())).toEqual([
      'add_nickname',
      'connect_wallet',
    ]);
    expect(metAccountQuests(null, new Set())).toEqual([]);
  });

  it('folds the nine invite quests into one summary and lists the cards without them', () => {
    const lists = questLists(answer([inviteServerTitle(2)]), 5);
    expect(lists.socialCards.map((q) => q.def.key)).toEqual(['telegram_ru', 'telegram_eng', 'discord']);
    expect(lists.invites).toMatchObject({ count: 5, done: 1, total: 9, claimable: true });
    expect(lists.invites.next?.def.invites).toBe(4);
    expect(lists.completed.map((q) => q.def.key)).toEqual(['invite_2']);
  });
});

describe('the quest count the landing page shows', () => {
  it('is the number of quests in the list', () => {
    expect(QUEST_COUNT).toBe(ALL_QUESTS.length);
  });
});
