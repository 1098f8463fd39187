import { useEffect } from 'react';
import { ErrorPage } from './ErrorPage.tsx';

/** What a route shows when it fails to load or render: the internal error page. */
export function RouteErrorPage({ error }: { error: unknown }) {
  useEffect(() => {
    console.error('Cabinet: a page failed', error);
  }, [error]);
  return (
    <main className="app-layout__main app-layout__main--bare">
      <ErrorPage code={500} />
    </main>
  );
}
