import { Component, type ErrorInfo, type ReactNode } from 'react';

/**
 * Whatever goes wrong while a page renders in the browser, the shopper gets a page that says so
 * and a way on, never a blank screen.
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('page error:', error, info.componentStack);
  }

  render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main" className="wrap">
        <section className="not-found" role="alert">
          <h1>Something went wrong</h1>
          <p>This page could not be shown. Please try again, or continue shopping from our beer list.</p>
          <p>
            <a className="button" href="/buy-beer">
              Browse our beers
            </a>{' '}
            <a href="/">Go to the home page</a>
          </p>
        </section>
      </main>
    );
  }
}
