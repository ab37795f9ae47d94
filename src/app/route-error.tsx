import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/button';
import '../components/placeholder-page.css';

/** Shown when a page fails to load or render (e.g. a lazy chunk that is gone after a deploy). */
function RouteError() {
  const { t } = useTranslation();
  return (
    <section className="placeholder-page" role="alert">
      <h1>{t('errors:generic.title')}</h1>
      <p>{t('errors:generic.text')}</p>
      <p>
        <Button onClick={() => window.location.reload()}>{t('actions.reload')}</Button>
      </p>
    </section>
  );
}

interface Props {
  children: ReactNode;
  /** The error is forgotten when this changes (the player went to another page). */
  resetKey: string;
}

export class RouteErrorBoundary extends Component<Props, { failedAt: string | null }> {
  state = { failedAt: null as string | null };

  static getDerivedStateFromError(): Partial<{ failedAt: string | null }> {
    return { failedAt: '' };
  }

  componentDidCatch(error: unknown): void {
    console.error(error);
    this.setState({ failedAt: this.props.resetKey });
  }

  render() {
    const { failedAt } = this.state;
    if (failedAt !== null && (failedAt === '' || failedAt === this.props.resetKey)) return <RouteError />;
    return this.props.children;
  }
}
