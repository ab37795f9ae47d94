import { describe, expect, it } from 'vitest';
import {
  localizeTaskDetail,
  TASK_CATEGORIES,
  TASK_MESSAGE_CODES,
  TASK_MESSAGES,
  taskMessage,
  taskMessageByRu,
} from '@shared/task-messages';

describe('task messages', () => {
  it('has a Russian and an English text for every code (per category where it varies)', () => {
    for (const code of TASK_MESSAGE_CODES) {
      const entries = TASK_MESSAGES.filter((m) => m.code === code);
      expect(entries.length, code).toBeGreaterThan(0);
      for (const category of TASK_CATEGORIES) {
        const m = taskMessage(code, category);
        expect(m.ru).toMatch(/[а-яё]/i);
        expect(m.en).toMatch(/^[\x20-\x7e]+$/);
      }
    }
  });

  it('keeps Russian texts unique so a text alone identifies its message', () => {
    const texts = TASK_MESSAGES.map((m) => m.ru);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('carries the spec catalogue meanings in English', () => {
    expect(taskMessage('category_incomplete', 'user_account_quests').en).toBe(
      "Not all 'User account quests' tasks are completed",
    );
    expect(taskMessage('category_reward_granted', 'social_quests').en).toBe(
      "100 coins reward granted for completing all 'Social quests'",
    );
    expect(taskMessage('no_new_rewards').ru).toBe('Нет новых наград');
  });

  it('localizes by code, then by Russian text, else leaves the text alone', () => {
    expect(localizeTaskDetail('en', 'whatever', 'wallet_not_added')).toBe('Wallet not added');
    expect(localizeTaskDetail('en', 'Награда за эту категорию уже получена')).toBe(
      'The reward for this category has already been claimed',
    );
    expect(localizeTaskDetail('ru', 'x', 'category_incomplete', 'social_quests')).toBe(
      taskMessage('category_incomplete', 'social_quests').ru,
    );
    expect(localizeTaskDetail('en', 'Something else', 'unknown_code')).toBe('Something else');
    expect(taskMessageByRu('Кошелёк не добавлен')?.code).toBe('wallet_not_added');
  });
});
