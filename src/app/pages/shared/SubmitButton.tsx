import { Button, CircularProgress } from '@mui/material';

/** The primary full-width submit button of a form; disabled with a spinner while the call runs. */
export function SubmitButton({ label, loading = false }: { label: string; loading?: boolean }) {
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      fullWidth
      disableElevation
      disabled={loading}
      startIcon={loading ? <CircularProgress size={18} color="inherit" aria-hidden /> : undefined}
      sx={{ py: 1.25, textTransform: 'none', fontWeight: 600 }}
    >
      {label}
    </Button>
  );
}
