import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ErrorPage } from './ErrorPage.tsx';

/** What the router shows when a route fails to load or render: the internal error page. */
export function RouteErrorPage() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Cabinet: a page failed', error);
  }, [error]);
  return (
    <main className="app-layout__main app-layout__main--bare">
      <ErrorPage code={500} />
    </main>
  );
}
