// /blog — the article list (features/blog).
import { BlogPage } from '@/features/blog/components/blog-page';

export default function BlogRoute() {
  return <BlogPage />;
}
