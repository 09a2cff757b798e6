import type { ReactNode } from 'react';
import { Box, Card, CardContent, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { ProductMark } from './ProductMark';

interface AuthLayoutProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Shown under the card (e.g. "Don't have an account? Create an account"). */
  footer?: ReactNode;
  maxWidth?: number;
  children: ReactNode;
}

/** The centered card every page outside the dashboard shell uses, with the product name on top. */
export function AuthLayout({ title, subtitle, footer, maxWidth = 440, children }: AuthLayoutProps) {
  return (
    <Box
      component="main"
      sx={(theme) => ({
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        px: 2,
        py: 6,
        background: `radial-gradient(circle at 20% 0%, ${alpha(theme.palette.secondary.main, 0.18)} 0%, transparent 45%), ${theme.palette.background.default}`,
      })}
    >
      <Box sx={{ width: '100%', maxWidth }}>
        <ProductMark />
        <Card elevation={0} sx={{ border: 1, borderColor: 'divider', borderRadius: 3, boxShadow: '0 8px 32px rgba(15, 23, 42, 0.06)' }}>
          <CardContent sx={{ p: { xs: 3, sm: 4 }, '&:last-child': { pb: { xs: 3, sm: 4 } } }}>
            <Typography component="h1" variant="h5" fontWeight={600}>
              {title}
            </Typography>
            {subtitle && (
              <Typography color="text.secondary" variant="body2" sx={{ mt: 0.75 }}>
                {subtitle}
              </Typography>
            )}
            <Box sx={{ mt: 3 }}>{children}</Box>
          </CardContent>
        </Card>
        {footer && (
          <Typography component="div" variant="body2" color="text.secondary" sx={{ mt: 2.5, textAlign: 'center' }}>
            {footer}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
