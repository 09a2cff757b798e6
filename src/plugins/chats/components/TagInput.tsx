import { Autocomplete, TextField } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** RoomHeader's tag field: a chunk of its own, loaded when the agent first adds a tag. */
export default function TagInput({
  options,
  value,
  onValueChange,
  onSubmit,
  onCancel,
}: {
  options: string[];
  value: string;
  onValueChange: (value: string) => void;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Autocomplete
      freeSolo
      size="small"
      options={options}
      inputValue={value}
      onInputChange={(_, v) => onValueChange(v)}
      onChange={(_, v) => typeof v === 'string' && onSubmit(v)}
      sx={{ width: 220 }}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus
          placeholder={t('chats.room.tagPlaceholder')}
          onBlur={() => (value.trim() ? onSubmit(value) : onCancel())}
          slotProps={{ htmlInput: { ...params.inputProps, 'aria-label': t('chats.room.addTag') } }}
        />
      )}
    />
  );
}
