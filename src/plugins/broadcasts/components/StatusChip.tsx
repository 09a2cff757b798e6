import { Chip } from '@mui/material';
import { ConsoleTooltip } from '../../../core';
import { useTranslation } from 'react-i18next';
import { BROADCAST_STATUSES } from '../../../../contract/broadcasts';
import { statusColor } from '../model/status';

/** A broadcast's status as a coloured chip; the reason (waiting for the messaging limit, failure) as its tooltip. */
export function StatusChip({ status, reason }: { status: string; reason?: string | null }) {
  const { t } = useTranslation();
  const label = (BROADCAST_STATUSES as readonly string[]).includes(status) ? t(`broadcasts.status.${status}`) : status;
  const chip = <Chip size="small" label={label} color={statusColor(status)} data-testid="broadcast-status" variant={status === 'draft' ? 'outlined' : 'filled'} />;
  return reason ? (
    <ConsoleTooltip title={reason}>
      <span>{chip}</span>
    </ConsoleTooltip>
  ) : (
    chip
  );
}
