import { Box, Button, IconButton, Stack, TextField, Typography } from '@mui/material';
import { mdiArrowDown, mdiArrowUp, mdiDeleteOutline, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';

/** A list of text items (extra_context): add, edit, remove, move up/down. */
export function TextListField(props: {
  label: string;
  help?: string;
  items: string[];
  onChange: (items: string[]) => void;
  errors?: (string | null)[];
  maxLength?: number;
  maxItems?: number;
}) {
  const { t } = useTranslation();
  const { items, onChange } = props;
  const set = (i: number, v: string) => onChange(items.map((x, j) => (j === i ? v : x)));
  const move = (i: number, d: -1 | 1) => {
    const next = [...items];
    [next[i], next[i + d]] = [next[i + d], next[i]];
    onChange(next);
  };
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
        {props.label}
      </Typography>
      {props.help && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {props.help}
        </Typography>
      )}
      {items.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('flows.create.noContext')}
        </Typography>
      )}
      <Stack spacing={1} component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {items.map((item, i) => (
          <Stack key={i} component="li" direction="row" spacing={0.5} alignItems="flex-start">
            <TextField
              fullWidth
              multiline
              size="small"
              label={t('flows.create.contextItem', { n: i + 1 })}
              value={item}
              onChange={(e) => set(i, e.target.value)}
              error={!!props.errors?.[i]}
              helperText={props.errors?.[i] ?? undefined}
              slotProps={{ htmlInput: { maxLength: props.maxLength } }}
            />
            <ConsoleTooltip title={t('flows.create.moveUp', { n: i + 1 })}>
              <span>
                <IconButton size="small" aria-label={t('flows.create.moveUp', { n: i + 1 })} disabled={i === 0} onClick={() => move(i, -1)}>
                  <MdiIcon path={mdiArrowUp} />
                </IconButton>
              </span>
            </ConsoleTooltip>
            <ConsoleTooltip title={t('flows.create.moveDown', { n: i + 1 })}>
              <span>
                <IconButton size="small" aria-label={t('flows.create.moveDown', { n: i + 1 })} disabled={i === items.length - 1} onClick={() => move(i, 1)}>
                  <MdiIcon path={mdiArrowDown} />
                </IconButton>
              </span>
            </ConsoleTooltip>
            <ConsoleTooltip title={t('flows.create.removeContext', { n: i + 1 })}>
              <IconButton size="small" color="error" aria-label={t('flows.create.removeContext', { n: i + 1 })} onClick={() => onChange(items.filter((_, j) => j !== i))}>
                <MdiIcon path={mdiDeleteOutline} />
              </IconButton>
            </ConsoleTooltip>
          </Stack>
        ))}
      </Stack>
      <Button
        size="small"
        startIcon={<MdiIcon path={mdiPlus} />}
        onClick={() => onChange([...items, ''])}
        disabled={props.maxItems !== undefined && items.length >= props.maxItems}
        sx={{ mt: 1 }}
      >
        {t('flows.create.addContext')}
      </Button>
    </Box>
  );
}
