// /article/:id (signed in): one article, stored in Dexie once read so it opens offline too.
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import type { BlogArticle } from '@shared/api/blog';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatLongDate } from '@/lib/date-format';
import { currentLanguage } from '@/lib/i18n';
import { useRefresh } from '@/lib/use-refresh';
import { refreshArticle } from '../api/blog-api';
import { useStoredArticle } from '../state/blog-rows';
import './blog.css';
import './article-content.css';

export function ArticlePage() {
  const { t, i18n } = useTranslation('blog');
  const { id = '' } = useParams();
  const lang = i18n.resolvedLanguage ?? currentLanguage();
  const article = useStoredArticle(lang, id);
  const { state, retry } = useRefresh(`${lang}:${id}`, () => refreshArticle(lang, id));
  const notFound = state.phase === 'failed' && state.failure.status === 404;

  useEffect(() => {
    document.title = article ? `${article.title} · ${t('common:appTitle')}` : t('list.documentTitle');
  }, [article, t]);

  const back = (
    <Link to="/blog" className="article__back">
      <span aria-hidden="true">←</span> {t('article.back')}
    </Link>
  );

  if (notFound) {
    return (
      <div className="blog blog--narrow">
        {back}
        <section className="article-missing" aria-labelledby="article-missing-title">
          <p className="article-missing__code" aria-hidden="true">
            404
          </p>
          <h1 id="article-missing-title">{t('article.notFoundTitle')}</h1>
          <p>{t('article.notFoundText')}</p>
          <Link to="/blog" className="btn btn--secondary article-missing__cta">
            {t('article.toList')}
          </Link>
        </section>
      </div>
    );
  }

  if (!article) {
    return (
      <div className="blog blog--narrow">
        {back}
        {state.phase === 'failed' ? (
          <div className="blog__status" role="status">
            <p>{t('article.loadFailed')}</p>
            <Button variant="ghost" onClick={retry}>
              {t('retry')}
            </Button>
          </div>
        ) : (
          <div className="blog__status">
            <Spinner size="lg" label={t('article.loading')} />
          </div>
        )}
      </div>
    );
  }

  return <ArticleView article={article} back={back} offline={state.phase === 'failed'} lang={lang} />;
}

function ArticleView({
  article,
  back,
  offline,
  lang,
}: {
  article: BlogArticle;
  back: React.ReactNode;
  offline: boolean;
  lang: string;
}) {
  const { t } = useTranslation('blog');
  const navigate = useNavigate();
  const date = formatLongDate(article.date, lang);
  // Links to the app's own pages inside an article open without reloading the app.
  const onContentClick = (e: React.MouseEvent<HTMLDivElement>) => {
    const link = (e.target as Element).closest('a');
    const href = link?.getAttribute('href');
    if (
      !link ||
      !href ||
      !href.startsWith('/') ||
      href.startsWith('//') ||
      link.target ||
      e.metaKey ||
      e.ctrlKey ||
      e.shiftKey ||
      e.button !== 0
    )
      return;
    e.preventDefault();
    void navigate(href);
  };
  return (
    <div className="blog blog--narrow">
      {back}
      <article className="article" lang={article.lang}>
        <header className="article__head">
          {date && (
            <time className="article__date" dateTime={article.date}>
              {date}
            </time>
          )}
          <h1 className="article__title">{article.title}</h1>
          <p className="article__summary">{article.summary}</p>
          {offline && (
            <p className="article__offline" role="status">
              {t('article.offlineCopy')}
            </p>
          )}
        </header>
        {article.cover && <img className="article__cover" src={article.cover} alt="" />}
        {/* The server renders the Markdown and sanitises the HTML (sanitize-html, server/services/blog.ts), so it is inserted as it is. */}
        {/* onContentClick only catches clicks bubbling up from the article's own links, which are
            keyboard-reachable themselves (Enter on a link fires the same click). */}
        {/* eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions */}
        <div className="article-content" onClick={onContentClick} dangerouslySetInnerHTML={{ __html: article.html }} />
      </article>
      <p className="article__foot">{back}</p>
    </div>
  );
}
