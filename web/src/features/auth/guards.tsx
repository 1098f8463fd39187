import { Navigate, Outlet, useLocation } from 'react-router';
import { useCurrentUser } from '../../stores/session-store.ts';
import { loginUrlFor } from './redirect-target.ts';

/** Routes that need a login: logged-out visitors go to /login with the intended full path. */
export function RequireAuth() {
  const user = useCurrentUser();
  const location = useLocation();
  if (!user) {
    return (
      <Navigate to={loginUrlFor(location.pathname + location.search + location.hash)} replace />
    );
  }
  return <Outlet />;
}

/** Routes for administrators only: everyone else lands on /403. */
export function RequireAdmin() {
  const user = useCurrentUser();
  if (!user?.perm.admin) return <Navigate to="/403" replace />;
  return <Outlet />;
}
