import type { ReactNode } from 'react';
import { Box, Typography } from '@mui/material';
import SvgIcon from '@mui/material/SvgIcon';

/**
 * A page that says what happened in place of the one asked for (not found, its code not fetched): an icon, a title,
 * what happened in a full sentence, and the one way on.
 */
export function StatusPage(props: { testId: string; icon: string; title: string; message: string; action: ReactNode; role?: 'alert'; minHeight?: string }) {
  return (
    <Box data-testid={props.testId} role={props.role} sx={{ textAlign: 'center', py: 8, px: 2, minHeight: props.minHeight }}>
      <SvgIcon sx={{ fontSize: 64, color: 'text.secondary' }} aria-hidden>
        <path d={props.icon} />
      </SvgIcon>
      <Typography variant="h4" component="h1" fontWeight={700} sx={{ mt: 1 }}>
        {props.title}
      </Typography>
      <Typography color="text.secondary" sx={{ mt: 1, mb: 3, maxWidth: 520, mx: 'auto' }}>
        {props.message}
      </Typography>
      {props.action}
    </Box>
  );
}

/** The status page's button. */
export const statusActionSx = { fontWeight: 600 } as const;
