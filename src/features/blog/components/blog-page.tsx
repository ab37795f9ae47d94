// /blog (public): the articles of the interface language, newest first, from the stored copy that
// the network refreshes (so the list still shows offline once visited); before there is one, the
// list the build prerendered into blog.html.
import { useAtomValue } from 'jotai';
import { useEffect, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { BlogSummary } from '@shared/api/blog';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { formatLongDate } from '@/lib/date-format';
import { currentLanguage } from '@/lib/i18n';
import { openModal } from '@/lib/modal-state';
import { rememberReturnTo } from '@/lib/return-to';
import { signedInAtom } from '@/lib/session';
import { useRefresh } from '@/lib/use-refresh';
import { refreshBlogList } from '../api/blog-api';
import { useStoredList } from '../state/blog-rows';
import { prerenderedList } from '../state/prerendered-list';
import './blog.css';

export function BlogPage() {
  const { t, i18n } = useTranslation('blog');
  const lang = i18n.resolvedLanguage ?? currentLanguage();
  // The build's list (the prerendered page) until a stored copy exists.
  const list = useStoredList(lang) ?? prerenderedList(lang);
  const { state, retry } = useRefresh(lang, () => refreshBlogList(lang));

  useEffect(() => {
    document.title = t('list.documentTitle');
  }, [t]);

  return (
    <div className="blog">
      <header className="blog__head">
        <p className="kicker kicker--cyan">{t('list.kicker')}</p>
        <h1>{t('list.title')}</h1>
        <p className="blog__lead">{t('list.lead')}</p>
      </header>

      {list && list.length > 0 && (
        <ul className="blog-list">
          {list.map((a) => (
            <ArticleCard key={a.id} article={a} lang={lang} />
          ))}
        </ul>
      )}
      {list && list.length === 0 && state.phase !== 'loading' && <p className="blog__empty">{t('list.empty')}</p>}
      {!list && state.phase === 'loading' && (
        <div className="blog__status">
          <Spinner size="lg" label={t('list.loading')} />
        </div>
      )}
      {state.phase === 'failed' && (
        <div className="blog__status" role="status">
          <p>{list ? t('list.offlineCopy') : t('list.loadFailed')}</p>
          <Button variant="ghost" onClick={retry}>
            {t('retry')}
          </Button>
        </div>
      )}
    </div>
  );
}

function ArticleCard({ article, lang }: { article: BlogSummary; lang: string }) {
  const { t } = useTranslation('blog');
  const date = formatLongDate(article.date, lang);
  const signedIn = useAtomValue(signedInAtom);
  const href = `/article/${encodeURIComponent(article.id)}`;
  // A visitor is asked to sign in right here: the article is for players, and going through its
  // guard would move them to / (issue 24), where closing the dialog left them off the blog.
  const readAsVisitor = (e: MouseEvent) => {
    if (signedIn || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    rememberReturnTo(href);
    openModal('main');
  };
  return (
    <li className="blog-card">
      {article.cover ? (
        <img className="blog-card__cover" src={article.cover} alt="" loading="lazy" />
      ) : (
        <span className="blog-card__cover blog-card__cover--none" aria-hidden="true" />
      )}
      <div className="blog-card__body">
        {date && (
          <time className="blog-card__date" dateTime={article.date}>
            {date}
          </time>
        )}
        <h2 className="blog-card__title">
          {/* The link stretches over the whole card (CSS), so the card is one click target. */}
          <Link to={href} className="blog-card__link" onClick={readAsVisitor}>
            {article.title}
          </Link>
        </h2>
        <p className="blog-card__summary">{article.summary}</p>
        <span className="blog-card__more" aria-hidden="true">
          {t('list.read')}
        </span>
      </div>
    </li>
  );
}
