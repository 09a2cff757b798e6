import { forwardRef, useEffect, useState } from 'react';
import { Autocomplete, Box, Chip, FormControlLabel, IconButton, InputAdornment, Switch, TextField, Tooltip } from '@mui/material';
import { mdiFilterVariant, mdiMagnify } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { isAgentTagName, type Tag } from '../../../../contract/chats';
import { MdiIcon } from '../../../core';
import { useChatService, useChatState } from '../hooks';

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
  const pages = useChatState((s) => s.pages);
  const [open, setOpen] = useState(unassignedOnly);
  // Arriving with the filter in the URL (the dashboard's Unassigned figure) shows it.
  useEffect(() => {
    if (unassignedOnly) setOpen(true);
  }, [unassignedOnly]);
  const active = filter.tags.length + filter.channels.length + (unassignedOnly ? 1 : 0);
  const selectedTags = tagOptions.filter((x) => filter.tags.some((f) => f.id === x.id));
  const selectedPages = pages.filter((p) => filter.channels.includes(p.id));
  const sortedTags = [...tagOptions].sort((a, b) => Number(isAgentTagName(a.name)) - Number(isAgentTagName(b.name)) || a.name.localeCompare(b.name));

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
        <Tooltip title={t('chats.filters')}>
          <IconButton aria-label={t('chats.filters')} aria-pressed={open} onClick={() => setOpen((v) => !v)} color={active ? 'primary' : 'default'}>
            <MdiIcon path={mdiFilterVariant} />
          </IconButton>
        </Tooltip>
      </Box>
      {open && (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, mt: 1 }}>
          {onUnassignedOnlyChange && (
            <FormControlLabel
              sx={{ ml: 0 }}
              control={<Switch size="small" checked={unassignedOnly} onChange={(e) => onUnassignedOnlyChange(e.target.checked)} slotProps={{ input: { 'data-testid': 'filter-unassigned' } as object }} />}
              label={t('chats.unassignedOnly')}
            />
          )}
          {showTags && (
            <Autocomplete
              multiple
              size="small"
              options={sortedTags}
              groupBy={(o) => (isAgentTagName(o.name) ? t('chats.agentTags') : t('chats.tags'))}
              getOptionLabel={(o) => o.name}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              value={selectedTags}
              onChange={(_, v) => service.setFilter({ tags: v.map((x) => ({ id: x.id })) })}
              renderValue={(value, getItemProps) => value.map((o, index) => <Chip size="small" label={o.name} {...getItemProps({ index })} key={o.id} />)}
              renderInput={(params) => <TextField {...params} label={t('chats.tags')} />}
            />
          )}
          <Autocomplete
            multiple
            size="small"
            options={pages}
            getOptionLabel={(o) => o.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            value={selectedPages}
            onChange={(_, v) => service.setFilter({ channels: v.map((p) => p.id) })}
            renderValue={(value, getItemProps) => value.map((o, index) => <Chip size="small" label={o.name} {...getItemProps({ index })} key={o.id} />)}
            renderInput={(params) => <TextField {...params} label={t('chats.channels')} />}
          />
        </Box>
      )}
    </Box>
  );
});
