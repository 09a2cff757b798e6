import { Box, Button, Chip, FormControlLabel, IconButton, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { mdiClose, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { Tag } from '../../../../contract/chats';
import type { ContactAttribute } from '../../../../contract/contacts';
import { LIST_VALUE_OPERATORS, SEGMENT_OPERATORS, VALUELESS_OPERATORS, type AttributeCondition, type SegmentConditions, type SegmentOperator } from '../../../../contract/segments';
import { MdiIcon } from '../../../core';
import type { ChannelOption } from '../model/hooks';

export interface ConditionBuilderProps {
  value: SegmentConditions;
  onChange: (next: SegmentConditions) => void;
  attributes: ContactAttribute[];
  tags: Tag[];
  channels: ChannelOption[];
  /** The API's field errors (`conditions.attributes.0.value` …). */
  errors?: Record<string, string[]>;
  disabled?: boolean;
}

/** A new condition on an attribute: its type's first operator, no value yet. */
function conditionOn(attribute: ContactAttribute): AttributeCondition {
  return { key: attribute.key, op: SEGMENT_OPERATORS[attribute.type][0], value: attribute.type === 'boolean' ? true : attribute.type === 'list' ? (attribute.options[0] ?? '') : '' };
}

/** The value a condition keeps when its operator changes (a list for in / not_in, none for set / not_set). */
function valueFor(op: SegmentOperator, previous: AttributeCondition['value'], attribute: ContactAttribute): AttributeCondition['value'] {
  if (VALUELESS_OPERATORS.includes(op)) return undefined;
  if (LIST_VALUE_OPERATORS.includes(op)) return Array.isArray(previous) ? previous : typeof previous === 'string' && previous ? [previous] : [];
  if (Array.isArray(previous)) return previous[0] ?? (attribute.type === 'list' ? (attribute.options[0] ?? '') : '');
  return previous ?? (attribute.type === 'boolean' ? true : '');
}

function ValueInput({ condition, attribute, onChange, error, disabled, label }: { condition: AttributeCondition; attribute: ContactAttribute; onChange: (value: AttributeCondition['value']) => void; error?: string; disabled?: boolean; label: string }) {
  const { t } = useTranslation();
  if (VALUELESS_OPERATORS.includes(condition.op)) return null;
  const common = { size: 'small' as const, label, error: !!error, helperText: error, disabled, sx: { minWidth: 180, flex: 1 } };
  if (attribute.type === 'boolean') {
    return (
      <TextField select {...common} value={condition.value === true || condition.value === 'true' ? 'true' : 'false'} onChange={(e) => onChange(e.target.value === 'true')}>
        <MenuItem value="true">{t('contacts.yes')}</MenuItem>
        <MenuItem value="false">{t('contacts.no')}</MenuItem>
      </TextField>
    );
  }
  if (attribute.type === 'list') {
    const multiple = LIST_VALUE_OPERATORS.includes(condition.op);
    const value = multiple ? (Array.isArray(condition.value) ? condition.value : []) : String(condition.value ?? '');
    return (
      <TextField
        select
        {...common}
        value={value}
        slotProps={{ select: { multiple, renderValue: multiple ? (v) => (v as string[]).join(', ') : undefined } }}
        onChange={(e) => onChange(multiple ? (typeof e.target.value === 'string' ? e.target.value.split(',') : (e.target.value as unknown as string[])) : e.target.value)}
      >
        {attribute.options.map((o) => (
          <MenuItem key={o} value={o}>
            {o}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  const type = attribute.type === 'number' ? 'number' : attribute.type === 'date' ? 'date' : 'text';
  return (
    <TextField
      {...common}
      type={type}
      value={condition.value === undefined || condition.value === null ? '' : String(condition.value)}
      onChange={(e) => onChange(attribute.type === 'number' && e.target.value !== '' && Number.isFinite(Number(e.target.value)) ? Number(e.target.value) : e.target.value)}
      slotProps={{ inputLabel: type === 'date' ? { shrink: true } : undefined, htmlInput: { maxLength: 1000 } }}
    />
  );
}

/**
 * The conditions of a segment: any of some tags, some channels, attribute conditions (each attribute's type
 * offers its operators and value input), a last message within N days, opted-in contacts only.
 */
export function ConditionBuilder({ value, onChange, attributes, tags, channels, errors = {}, disabled }: ConditionBuilderProps) {
  const { t } = useTranslation();
  const byKey = new Map(attributes.map((a) => [a.key, a]));
  const error = (field: string) => errors[`conditions.${field}`]?.[0];
  const setAttribute = (index: number, next: AttributeCondition) => onChange({ ...value, attributes: value.attributes.map((c, i) => (i === index ? next : c)) });
  const chips = (names: Map<number, string>) => (selected: unknown) => (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {(selected as number[]).map((id) => (
        <Chip key={id} size="small" label={names.get(id) ?? String(id)} />
      ))}
    </Box>
  );
  const tagNames = new Map(tags.map((tag) => [tag.id, tag.name]));
  const channelNames = new Map(channels.map((c) => [c.id, c.name]));
  return (
    <Stack spacing={2}>
      <TextField
        select
        size="small"
        label={t('contacts.segments.tags')}
        helperText={error('tags') ?? t('contacts.segments.tagsHelp')}
        error={!!error('tags')}
        disabled={disabled}
        value={value.tags}
        slotProps={{ select: { multiple: true, renderValue: chips(tagNames) } }}
        onChange={(e) => onChange({ ...value, tags: (e.target.value as unknown as (number | string)[]).map(Number) })}
      >
        {tags.map((tag) => (
          <MenuItem key={tag.id} value={tag.id}>
            {tag.name}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('contacts.segments.channels')}
        helperText={error('channels') ?? t('contacts.segments.channelsHelp')}
        error={!!error('channels')}
        disabled={disabled}
        value={value.channels}
        slotProps={{ select: { multiple: true, renderValue: chips(channelNames) } }}
        onChange={(e) => onChange({ ...value, channels: (e.target.value as unknown as (number | string)[]).map(Number) })}
      >
        {channels.map((c) => (
          <MenuItem key={c.id} value={c.id}>
            {c.name}
          </MenuItem>
        ))}
      </TextField>

      <Box>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {t('contacts.segments.attributeConditions')}
        </Typography>
        <Stack spacing={1.5}>
          {value.attributes.map((condition, index) => {
            const attribute = byKey.get(condition.key);
            const n = index + 1;
            return (
              <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'flex-start' }} data-testid={`condition-${index}`}>
                <TextField
                  select
                  size="small"
                  label={t('contacts.segments.attribute', { n })}
                  value={attribute ? condition.key : ''}
                  error={!!error(`attributes.${index}.key`)}
                  helperText={error(`attributes.${index}.key`)}
                  disabled={disabled}
                  sx={{ minWidth: 160 }}
                  onChange={(e) => {
                    const next = byKey.get(e.target.value);
                    if (next) setAttribute(index, conditionOn(next));
                  }}
                >
                  {attributes.map((a) => (
                    <MenuItem key={a.key} value={a.key}>
                      {a.name}
                    </MenuItem>
                  ))}
                </TextField>
                {attribute && (
                  <TextField
                    select
                    size="small"
                    label={t('contacts.segments.operator', { n })}
                    value={condition.op}
                    error={!!error(`attributes.${index}.op`)}
                    helperText={error(`attributes.${index}.op`)}
                    disabled={disabled}
                    sx={{ minWidth: 150 }}
                    onChange={(e) => {
                      const op = e.target.value as SegmentOperator;
                      setAttribute(index, { ...condition, op, value: valueFor(op, condition.value, attribute) });
                    }}
                  >
                    {SEGMENT_OPERATORS[attribute.type].map((op) => (
                      <MenuItem key={op} value={op}>
                        {t(`contacts.segments.operators.${attribute.type === 'date' && op === 'eq' ? 'on' : op}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
                {attribute && (
                  <ValueInput
                    condition={condition}
                    attribute={attribute}
                    label={t('contacts.segments.value', { n })}
                    error={error(`attributes.${index}.value`)}
                    disabled={disabled}
                    onChange={(v) => setAttribute(index, { ...condition, value: v })}
                  />
                )}
                {!disabled && (
                  <IconButton aria-label={t('contacts.segments.removeCondition', { n })} onClick={() => onChange({ ...value, attributes: value.attributes.filter((_, i) => i !== index) })}>
                    <MdiIcon path={mdiClose} fontSize="small" />
                  </IconButton>
                )}
              </Stack>
            );
          })}
        </Stack>
        {!disabled && (
          <Button
            size="small"
            startIcon={<MdiIcon path={mdiPlus} fontSize="small" />}
            disabled={!attributes.length || value.attributes.length >= 20}
            onClick={() => onChange({ ...value, attributes: [...value.attributes, conditionOn(attributes[0])] })}
            sx={{ mt: 1 }}
          >
            {t('contacts.segments.addCondition')}
          </Button>
        )}
        {!attributes.length && (
          <Typography variant="body2" color="text.secondary">
            {t('contacts.segments.noAttributes')}
          </Typography>
        )}
      </Box>

      <TextField
        size="small"
        type="number"
        label={t('contacts.segments.lastMessage')}
        helperText={error('last_message_within_days') ?? t('contacts.segments.lastMessageHelp')}
        error={!!error('last_message_within_days')}
        disabled={disabled}
        value={value.last_message_within_days ?? ''}
        slotProps={{ htmlInput: { min: 1, max: 3650 } }}
        onChange={(e) => onChange({ ...value, last_message_within_days: e.target.value === '' ? null : Math.trunc(Number(e.target.value)) })}
        sx={{ maxWidth: 320 }}
      />
      <FormControlLabel
        control={<Switch checked={value.opted_in_only} disabled={disabled} onChange={(e) => onChange({ ...value, opted_in_only: e.target.checked })} />}
        label={t('contacts.segments.optedInOnly')}
      />
    </Stack>
  );
}
