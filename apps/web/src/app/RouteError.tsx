import { Layout } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { Splash } from '../components/Splash.tsx';
import { isChunkLoadError, reloadOnce } from '../lib/reload.ts';
import { ServerErrorPage } from '../pages/ServerErrorPage.tsx';

const NotFoundPage = lazy(() => import('../pages/NotFoundPage.tsx').then((m) => ({ default: m.NotFoundPage })));

/**
 * The error boundary: a missing page, a stale chunk after a deploy, or a real failure. Inside a
 * layout it fills the content area; `fullPage` when the layout itself failed.
 */
export function RouteError({ fullPage = false }: { fullPage?: boolean }) {
  if (!fullPage) return <ErrorContent />;
  return (
    <Layout style={{ minHeight: '100vh', justifyContent: 'center' }}>
      <ErrorContent />
    </Layout>
  );
}

function ErrorContent() {
  const error = useRouteError();
  const missing = isRouteErrorResponse(error) && error.status === 404;
  const staleChunk = isChunkLoadError(error);
  const [reloadBlocked, setReloadBlocked] = useState(false);

  useEffect(() => {
    if (staleChunk && !reloadOnce()) setReloadBlocked(true);
  }, [staleChunk]);

  useEffect(() => {
    if (!staleChunk && !missing) console.error(error);
  }, [error, staleChunk, missing]);

  if (missing) {
    return (
      <Suspense fallback={<Splash />}>
        <NotFoundPage />
      </Suspense>
    );
  }
  if (staleChunk && !reloadBlocked) return <Splash />;
  return <ServerErrorPage error={error} />;
}
