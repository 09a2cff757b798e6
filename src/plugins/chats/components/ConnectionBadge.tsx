import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useChatState } from '../hooks';

const COLORS = { idle: 'default', connecting: 'info', live: 'success', reconnecting: 'warning' } as const;

/** The socket as the agent sees it: connecting, live or reconnecting. */
export function ConnectionBadge() {
  const { t } = useTranslation();
  const connection = useChatState((s) => s.connection);
  return (
    <Chip
      size="small"
      variant={connection === 'live' ? 'outlined' : 'filled'}
      color={COLORS[connection]}
      label={t(`chats.connection.${connection}`)}
      data-testid="connection-state"
      data-state={connection}
      role="status"
    />
  );
}
