import { Navigate, useLocation } from 'react-router';

/** Any path the app does not know is taken as a path inside the files area. */
export function UnknownPathRedirect() {
  const location = useLocation();
  return <Navigate to={`/files${location.pathname}${location.search}${location.hash}`} replace />;
}
