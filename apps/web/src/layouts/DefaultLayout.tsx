import { Outlet } from 'react-router';
import { useSession } from '../lib/access.tsx';
import { CentredLayout } from './CentredLayout.tsx';
import { DashboardLayout } from './DashboardLayout.tsx';

/**
 * No permission, not found: inside the signed-in layout (menu, user menu) for someone signed in,
 * so the way on is where it always is; plain and centred for anyone else.
 */
export function DefaultLayout() {
  const { token, signedOut } = useSession();
  if (token && !signedOut) return <DashboardLayout />;
  return (
    <CentredLayout>
      <Outlet />
    </CentredLayout>
  );
}
