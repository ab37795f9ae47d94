// What the bot says (decisions §14), in the player's language: Russian for `ru…`, else English.
// Telegram's `language_code` (an IETF tag such as `ru` or `en-US`) for /start, `users.locale` for
// reminders.
export type BotLocale = 'en' | 'ru';

export const botLocaleOf = (code: string | null | undefined): BotLocale =>
  code?.toLowerCase().startsWith('ru') ? 'ru' : 'en';

/** The label of the chat's menu button, which opens the Mini App (the bot's default is English). */
export const menuButtonText = (locale: BotLocale) => (locale === 'ru' ? 'Играть' : 'Play');

export function startText(locale: BotLocale, appName: string, referred: boolean) {
  if (locale === 'ru')
    return {
      text: referred
        ? `Вас пригласили в ${appName}! Откройте игру, чтобы зарегистрироваться и начать майнить PXT.`
        : `Добро пожаловать в ${appName}! Майните PXT, выполняйте задания и забирайте монеты — всё в одном приложении.`,
      button: menuButtonText('ru'),
    };
  return {
    text: referred
      ? `You were invited to ${appName}! Open the game to sign up and start mining PXT.`
      : `Welcome to ${appName}! Mine PXT, complete quests and claim your coins, all in one app.`,
    button: menuButtonText('en'),
  };
}

export function helpText(locale: BotLocale, appName: string) {
  return locale === 'ru'
    ? {
        text: `Нажмите «Играть», чтобы открыть ${appName}. Кнопка снова появится по команде /start.`,
        button: menuButtonText('ru'),
      }
    : { text: `Tap Play to open ${appName}. Send /start to get the button again.`, button: menuButtonText('en') };
}

export function readyText(locale: BotLocale) {
  return locale === 'ru'
    ? { text: 'Сессия майнинга завершена ⛏ Заберите свои монеты и начните следующую.', button: 'Забрать' }
    : { text: 'Your mining session is over ⛏ Claim your coins and start the next one.', button: 'Claim' };
}
