import { Component, type ReactNode } from 'react';

/**
 * For a part of the page that is an extra (the PWA layer): when its lazy chunk cannot load (offline
 * before the service worker had it) it shows nothing instead of taking the page down with the
 * route's error; the next load of the app brings it (a rejected lazy import is not retried).
 */
export class OptionalPart extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: unknown): void {
    console.warn('An optional part of the page could not load; it is left out until the next load', error);
  }

  render() {
    return this.state.failed ? null : this.props.children;
  }
}
