import { mdiAlertCircleOutline, mdiCheck, mdiCheckAll, mdiClockOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { DeliveryStatus } from '../../../../contract/chats';
import { MdiIcon } from '../../../core';

const ICONS: Record<DeliveryStatus, string> = {
  pending: mdiClockOutline,
  sent: mdiCheck,
  delivered: mdiCheckAll,
  read: mdiCheckAll,
  failed: mdiAlertCircleOutline,
};

/** Delivery state of an outgoing message: clock, ✓, ✓✓, blue ✓✓, or failed. */
export function DeliveryTicks({ status }: { status: DeliveryStatus | null }) {
  const { t } = useTranslation();
  const s = status ?? 'sent';
  const label = t(`chats.status.${s}`);
  return (
    <MdiIcon
      path={ICONS[s]}
      role="img"
      aria-label={label}
      titleAccess={label}
      data-status={s}
      sx={{ fontSize: 16, verticalAlign: 'middle', color: s === 'read' ? '#34B7F1' : s === 'failed' ? 'error.main' : 'text.secondary' }}
    />
  );
}
