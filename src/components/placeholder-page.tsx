import { useTranslation } from 'react-i18next';
import './placeholder-page.css';

/** A titled page waiting for its feature ("coming in the next update"). `page` names its texts in common:pages. */
export function PlaceholderPage({ page }: { page: string }) {
  const { t } = useTranslation();
  return (
    <section className="placeholder-page" aria-labelledby="placeholder-title">
      <h1 id="placeholder-title">{t(`pages.${page}.title`)}</h1>
      <p>{t(`pages.${page}.text`)}</p>
      <p className="placeholder-page__soon">{t('pages.soon')}</p>
    </section>
  );
}
