import type { ReactNode } from 'react';
import { Card, CardContent, Typography } from '@mui/material';

/** One titled section of the account page. */
export function SectionCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <Card variant="outlined" component="section" aria-label={title} sx={{ borderRadius: 3 }}>
      <CardContent sx={{ p: 3 }}>
        <Typography variant="h6" component="h2" fontWeight={600}>
          {title}
        </Typography>
        {subtitle && (
          <Typography variant="body2" color="text.secondary">
            {subtitle}
          </Typography>
        )}
        <div style={{ marginTop: 20 }}>{children}</div>
      </CardContent>
    </Card>
  );
}
