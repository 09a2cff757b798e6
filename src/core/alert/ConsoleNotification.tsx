import { useEffect } from 'react';
import { undoableEventEmitter, useNotificationContext, useTakeUndoableMutation, useTranslate } from 'react-admin';
import type { AlertType } from '../apis';
import { AlertHost } from './AlertHost';
import { useAlert } from './useAlert';

/** react-admin's notification after a submit with field errors. */
export const INVALID_FORM_MESSAGE = 'ra.message.invalid_form';

/**
 * react-admin's `notification` component: forwards RA's own notifications (useNotify) into the
 * AlertApi so the console has one alert UI, and renders that UI. The single alert has no undo
 * button, so undoable mutations are committed right away.
 */
export function ConsoleNotification() {
  const { notifications, takeNotification } = useNotificationContext();
  const takeMutation = useTakeUndoableMutation();
  const translate = useTranslate();
  const alert = useAlert();

  useEffect(() => {
    if (!notifications.length) return;
    const notification = takeNotification();
    if (!notification) return;
    const { message, type, notificationOptions } = notification;
    // Every console form shows its errors on its fields; react-admin's extra "The form is not valid"
    // banner (notified on any failed submit) would only repeat them, and linger beside a later
    // server error. Dropped here once for all forms.
    if (message === INVALID_FORM_MESSAGE) return;
    if (typeof message === 'string') alert.show(translate(message, notificationOptions?.messageArgs), (type ?? 'info') as AlertType);
    if (notificationOptions?.undoable) {
      const mutation = takeMutation();
      if (mutation) mutation({ isUndo: false });
      else undoableEventEmitter.emit('end', { isUndo: false });
    }
  }, [notifications, takeNotification, takeMutation, translate, alert]);

  return <AlertHost />;
}
