import { Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId } from 'react';

/** A small confirmation dialog (remove a member, revoke an invite, disconnect a channel). */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const titleId = useId();
  const messageId = useId();
  return (
    <Dialog open={props.open} onClose={props.pending ? undefined : props.onClose} aria-labelledby={titleId} aria-describedby={messageId}>
      <DialogTitle id={titleId}>{props.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={messageId}>{props.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.pending}>
          {props.cancelLabel}
        </Button>
        <Button
          onClick={props.onConfirm}
          color="error"
          variant="contained"
          disableElevation
          disabled={props.pending}
          startIcon={props.pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          sx={{ fontWeight: 600 }}
        >
          {props.confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
