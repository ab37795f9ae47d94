// Telegram's theme colours (light or dark) on the app's colour tokens of src/app/global.css, kept
// current when the player switches Telegram's theme. A token Telegram sends no colour for keeps the
// app's own value; each token lists the palette keys to try, first present wins.
import { themeParams, type KnownThemeParamsKey } from '@tma.js/sdk';

export const THEME_TOKENS: readonly (readonly [token: string, ...keys: KnownThemeParamsKey[]])[] = [
  ['--bg', 'bg_color'],
  ['--bg-2', 'secondary_bg_color', 'bg_color'],
  ['--panel', 'section_bg_color', 'secondary_bg_color'],
  ['--panel-2', 'secondary_bg_color', 'section_bg_color'],
  ['--line', 'section_separator_color', 'hint_color'],
  ['--text', 'text_color'],
  ['--muted', 'hint_color', 'subtitle_text_color'],
  ['--neon', 'button_color'],
  ['--on-neon', 'button_text_color'],
  ['--neon-2', 'link_color', 'accent_text_color'],
];

/** The token values for a palette (only tokens with a colour). */
export function themeTokens(palette: Partial<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [token, ...keys] of THEME_TOKENS) {
    const colour = keys.map((k) => palette[k]).find(Boolean);
    if (colour) out[token] = colour;
  }
  return out;
}

function apply(): void {
  const root = document.documentElement;
  const tokens = themeTokens(themeParams.state());
  for (const [token] of THEME_TOKENS) {
    if (tokens[token]) root.style.setProperty(token, tokens[token]);
    else root.style.removeProperty(token);
  }
  root.dataset.scheme = themeParams.isDark() ? 'dark' : 'light';
}

/** Mounts Telegram's theme parameters and follows them. */
export function followTelegramTheme(): void {
  themeParams.mount();
  apply();
  themeParams.state.sub(apply);
}
