import { useEffect, useState } from 'react';

export const BUILD_ID = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';
const POLL_MS = 5 * 60 * 1000;

async function latestBuildId(): Promise<string | null> {
  try {
    const response = await fetch('/builds/latest.json', { cache: 'no-store' });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const id = (body as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : null;
  } catch {
    return null;
  }
}

/**
 * Whether a newer build is deployed: asked at once, every five minutes and whenever the tab comes
 * back into view. The notice that offers the reload is the page's (NewVersionNotice, and the
 * sign-in page's own); none forces one (a cashier may be mid-sale).
 */
export function useNewVersion(): boolean {
  const [available, setAvailable] = useState(false);
  useEffect(() => {
    let active = true;
    const check = async () => {
      const id = await latestBuildId();
      if (active && id && id !== BUILD_ID) setAvailable(true);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void check();
    };
    void check();
    const timer = setInterval(check, POLL_MS);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      active = false;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);
  return available;
}
