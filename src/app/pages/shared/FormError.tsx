import type { ReactNode } from 'react';
import { Alert } from '@mui/material';

/** The error a failed submit produced, shown above the form's fields. */
export function FormError({ children }: { children?: ReactNode }) {
  if (!children) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mb: 2 }}>
      {children}
    </Alert>
  );
}
