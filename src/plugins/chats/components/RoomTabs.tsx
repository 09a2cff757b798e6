import { Box, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { ROOM_STATUS_FILTERS, ROOM_STATUSES, ROOM_TABS, type RoomCounts, type RoomStatusFilter, type RoomTab } from '../../../../contract/conversations';
import { FullWidthTabs } from '../../../core';
import { useChatService, useChatState } from '../hooks';

/** How many rooms a tab holds under a status filter ('all': every status), or null before the counts arrive. */
export function countOf(counts: RoomCounts | null, status: RoomStatusFilter, tab: RoomTab): number | null {
  if (!counts) return null;
  if (status === 'all') return ROOM_STATUSES.reduce((sum, s) => sum + counts[s][tab], 0);
  return counts[status][tab];
}

/**
 * Issue #22: the list's tabs (Mine, Unassigned, All) and its status filter (open by default), each with
 * its count, live (the service asks for the counts again after every change of the rooms it knows).
 * The filter is the browser's own select (a phone's picker): MUI's menu select keeps its field's node in state, set
 * inside the commit, which made the inbox's first commit and all its effects one long task (docs/architecture.md,
 * "How the console mounts").
 */
export function RoomTabs({ tab, onTabChange }: { tab: RoomTab; onTabChange: (tab: RoomTab) => void }) {
  const { t } = useTranslation();
  const service = useChatService();
  const counts = useChatState((s) => s.counts);
  const status = useChatState((s) => s.filter.status ?? 'all');
  const label = (key: RoomTab) => {
    const count = countOf(counts, status, key);
    const name = t(`chats.conversations.tabs.${key}`);
    return count === null ? name : t('chats.conversations.tabs.withCount', { label: name, count });
  };
  return (
    <Box sx={{ px: 1.5, pb: 0.5 }}>
      <FullWidthTabs
        value={tab}
        onChange={onTabChange}
        aria-label={t('chats.conversations.tabs.label')}
        tabs={ROOM_TABS.map((key) => ({ value: key, label: label(key), testId: `room-tab-${key}` }))}
      />
      <TextField
        select
        size="small"
        fullWidth
        label={t('chats.conversations.statusFilter')}
        value={status}
        onChange={(e) => service.setFilter({ status: e.target.value as RoomStatusFilter })}
        sx={{ mt: 1 }}
        slotProps={{ select: { native: true }, htmlInput: { 'data-testid': 'room-status-filter' } }}
      >
        {ROOM_STATUS_FILTERS.map((s) => {
          const count = countOf(counts, s, tab);
          const name = t(`chats.conversations.status.${s}`);
          return (
            <option key={s} value={s} data-testid={`room-status-${s}`}>
              {count === null ? name : t('chats.conversations.statusWithCount', { status: name, count })}
            </option>
          );
        })}
      </TextField>
    </Box>
  );
}
