import { Typography } from '@mui/material';
import type { ReactNode } from 'react';

export interface InlineFact {
  label: string;
  value: ReactNode;
}

/**
 * A row's secondary columns said in one wrapping line ("Steps 6 · Conversations 12 · Updated Dec 3"), where a phone
 * has no room for their columns: each label stays beside its value, so nothing reads as a bare number. A fact without
 * a value (null, undefined, '') is left out, as its empty cell would say nothing.
 */
export function InlineFacts({ facts }: { facts: InlineFact[] }) {
  const shown = facts.filter((fact) => fact.value !== null && fact.value !== undefined && fact.value !== '');
  return (
    <Typography variant="caption" color="text.secondary" component="p" sx={{ m: 0 }}>
      {shown.map((fact, index) => (
        <span key={fact.label}>
          {index > 0 && ' · '}
          {fact.label}{' '}
          <Typography component="span" variant="caption" color="text.primary" fontWeight={600}>
            {fact.value}
          </Typography>
        </span>
      ))}
    </Typography>
  );
}
