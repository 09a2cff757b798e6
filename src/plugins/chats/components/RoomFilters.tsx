import { forwardRef, lazy, Suspense, useEffect, useState } from 'react';
import { Box, IconButton, InputAdornment, TextField } from '@mui/material';
import { mdiFilterVariant, mdiMagnify } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { Tag } from '../../../../contract/chats';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { useChatService, useChatState } from '../hooks';

/** The tag, channel and unassigned filters: loaded when the filters first open (their Autocomplete is not part of the inbox's first load). */
const RoomFilterFields = lazy(() => import('./RoomFilterFields'));

/**
 * Contact search (spec §3): a term, tags and channels. The list filters at once; the server is
 * asked after 500 ms of quiet (at most 2 s). The tag filter only shows where the agent feature allows.
 */
export const RoomFilters = forwardRef<
  HTMLInputElement,
  { tagOptions: Tag[]; showTags: boolean; /** /chats?filter=unassigned (the page keeps it in the URL). */ unassignedOnly?: boolean; onUnassignedOnlyChange?: (on: boolean) => void }
>(function RoomFilters({ tagOptions, showTags, unassignedOnly = false, onUnassignedOnlyChange }, ref) {
  const { t } = useTranslation();
  const service = useChatService();
  const filter = useChatState((s) => s.filter);
  const [open, setOpen] = useState(unassignedOnly);
  // Arriving with the filter in the URL (the dashboard's Unassigned figure) shows it.
  useEffect(() => {
    if (unassignedOnly) setOpen(true);
  }, [unassignedOnly]);
  const active = filter.tags.length + filter.channels.length + (unassignedOnly ? 1 : 0);

  return (
    <Box sx={{ px: 1.5, pb: 1 }}>
      <Box sx={{ display: 'flex', gap: 0.5, alignItems: 'center' }}>
        <TextField
          inputRef={ref}
          size="small"
          fullWidth
          type="search"
          placeholder={t('chats.searchHint')}
          value={filter.term}
          onChange={(e) => service.setFilter({ term: e.target.value })}
          slotProps={{
            htmlInput: { 'aria-label': t('chats.search'), 'data-testid': 'room-search' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <MdiIcon path={mdiMagnify} fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <ConsoleTooltip title={t('chats.filters')}>
          <IconButton aria-label={t('chats.filters')} aria-pressed={open} onClick={() => setOpen((v) => !v)} color={active ? 'primary' : 'default'}>
            <MdiIcon path={mdiFilterVariant} />
          </IconButton>
        </ConsoleTooltip>
      </Box>
      {open && (
        <Suspense fallback={null}>
          <RoomFilterFields tagOptions={tagOptions} showTags={showTags} unassignedOnly={unassignedOnly} onUnassignedOnlyChange={onUnassignedOnlyChange} />
        </Suspense>
      )}
    </Box>
  );
});
