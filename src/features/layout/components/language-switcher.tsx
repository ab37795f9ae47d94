import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '@shared/constants';
import { currentLanguage } from '@/lib/i18n';
import { switchLanguage } from '@/lib/language';

/** Eng / Rus (spec §2): shown by the header only when the player's language flag is set. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const active = i18n.resolvedLanguage ?? currentLanguage();
  return (
    <div className="lang-switch" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((lng: Language) => (
        <button
          key={lng}
          type="button"
          className="lang-switch__option"
          aria-pressed={active === lng}
          lang={lng}
          onClick={() => active !== lng && void switchLanguage(lng)}
        >
          {t(`language.short.${lng}`)}
        </button>
      ))}
    </div>
  );
}
