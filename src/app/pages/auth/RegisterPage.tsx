import { Navigate, useLocation } from 'react-router-dom';

/** /auth/register: sign-up is the three-step flow, which starts at the e-mail check. */
export function RegisterPage() {
  const { search } = useLocation();
  return <Navigate to={`/auth/signup/check-email${search}`} replace />;
}
