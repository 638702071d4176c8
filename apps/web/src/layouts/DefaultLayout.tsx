import { Outlet } from 'react-router';
import { CentredLayout } from './CentredLayout.tsx';

/** Plain centred pages: no permission, not found. */
export function DefaultLayout() {
  return (
    <CentredLayout>
      <Outlet />
    </CentredLayout>
  );
}
