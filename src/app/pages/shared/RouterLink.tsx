import type { ReactNode } from 'react';
import { Link, type LinkProps } from '@mui/material';
import { Link as RouterDomLink } from 'react-router-dom';

/** An MUI link that navigates inside the app. */
export function RouterLink({ to, children, ...props }: Omit<LinkProps, 'href'> & { to: string; children: ReactNode }) {
  return (
    <Link component={RouterDomLink} to={to} underline="hover" fontWeight={500} {...props}>
      {children}
    </Link>
  );
}
