// /privacy and /terms: the documents a player accepts when signing in (issue 16). The Markdown
// ships inside this lazy page's chunk (Vite `?raw`), so the service worker's precache keeps it and
// the page opens offline; it is our own text, rendered with marked like the blog's articles.
import { Marked } from 'marked';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/lib/i18n';
import privacyEn from '../content/en/privacy.md?raw';
import termsEn from '../content/en/terms.md?raw';
import privacyRu from '../content/ru/privacy.md?raw';
import termsRu from '../content/ru/terms.md?raw';
import './legal.css';

export type LegalDocument = 'privacy' | 'terms';

const TEXTS: Record<LegalDocument, Record<'en' | 'ru', string>> = {
  privacy: { en: privacyEn, ru: privacyRu },
  terms: { en: termsEn, ru: termsRu },
};
const marked = new Marked({ gfm: true, async: false });

export function LegalPage({ doc }: { doc: LegalDocument }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const html = useMemo(() => marked.parse(TEXTS[doc][lang]) as string, [doc, lang]);
  useEffect(() => {
    document.title = `${t(`legal.${doc}`)} · ${t('appTitle')}`;
  }, [doc, t]);
  // Our own Markdown from this repository (not user input), so it is inserted as rendered.
  return (
    <article className="legal" lang={lang} data-testid={`legal-${doc}`} dangerouslySetInnerHTML={{ __html: html }} />
  );
}
