import { Autocomplete, Box, Chip, FormControlLabel, Switch, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { isAgentTagName, type Tag } from '../../../../contract/chats';
import { useChatService, useChatState } from '../hooks';

/** RoomFilters' panel (tags, channels, unassigned only), a chunk of its own loaded when the filters open. */
export default function RoomFilterFields({
  tagOptions,
  showTags,
  unassignedOnly,
  onUnassignedOnlyChange,
}: {
  tagOptions: Tag[];
  showTags: boolean;
  unassignedOnly: boolean;
  onUnassignedOnlyChange?: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const service = useChatService();
  const filter = useChatState((s) => s.filter);
  const pages = useChatState((s) => s.pages);
  const selectedTags = tagOptions.filter((x) => filter.tags.some((f) => f.id === x.id));
  const selectedPages = pages.filter((p) => filter.channels.includes(p.id));
  const sortedTags = [...tagOptions].sort((a, b) => Number(isAgentTagName(a.name)) - Number(isAgentTagName(b.name)) || a.name.localeCompare(b.name));

  return (
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
  );
}
