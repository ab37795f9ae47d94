// /article/:id — one article (features/blog).
import { ArticlePage } from '@/features/blog/components/article-page';

export default function ArticleRoute() {
  return <ArticlePage />;
}
