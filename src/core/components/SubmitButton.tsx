import { Button, CircularProgress } from '@mui/material';

/**
 * A form's primary submit button; disabled with a spinner while the call runs.
 * `block`: the large full-width button of the auth pages; otherwise a compact one for sections and dialogs.
 */
export function SubmitButton({ label, loading = false, block = false }: { label: string; loading?: boolean; block?: boolean }) {
  return (
    <Button
      type="submit"
      variant="contained"
      size={block ? 'large' : 'medium'}
      fullWidth={block}
      disableElevation
      disabled={loading}
      startIcon={loading ? <CircularProgress size={block ? 18 : 16} color="inherit" aria-hidden /> : undefined}
      sx={{ ...(block ? { py: 1.25 } : {}), fontWeight: 600 }}
    >
      {label}
    </Button>
  );
}
