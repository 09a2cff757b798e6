/**
 * Business hours and the away message of the selected company (issue #22, contract/businessHours.ts):
 * one row per weekday (closed, or up to four intervals), the IANA time zone, the away message and the
 * switch that sends it. Read with GET /api/business-hours/ (every member), saved with PUT (manage access
 * to your_account); without it every field is read-only with one line saying who can change them.
 */
import { Alert, Autocomplete, Box, Button, Chip, FormControlLabel, IconButton, Stack, Switch, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { mdiClose, mdiPlus } from '@mdi/js';
import {
  AWAY_MESSAGE_MAX,
  MAX_INTERVALS_PER_DAY,
  minutesOf,
  WEEKDAYS,
  type BusinessHours,
  type BusinessHoursBody,
  type Weekday,
} from '../../../contract/businessHours';
import { errorText, httpApiRef, MdiIcon, useAccess, useAccount, useAlert, useApi } from '../../core';
import { SectionCard } from '../../core/components/SectionCard';

const PATH = '/api/business-hours/';

/** The runtime's IANA zones (with UTC first); a saved zone the list lacks is kept. */
function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

/** An interval's problem, in the console's words (the server checks the same). */
function intervalProblem(open: string, close: string): 'invalid' | 'order' | null {
  const o = minutesOf(open);
  const c = minutesOf(close);
  if (o === null || c === null) return 'invalid';
  return c > o ? null : 'order';
}

export function BusinessHoursSection() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const queryKey = ['account', 'business-hours', companyId];
  const hours = useQuery({ queryKey, queryFn: () => http.get<BusinessHours>(PATH), retry: false });
  return (
    <SectionCard title={t('account.hours.title')} subtitle={t('account.hours.subtitle')}>
      {hours.data?.days ? <BusinessHoursEditor key={companyId} initial={hours.data} queryKey={queryKey} /> : hours.isError ? <Alert severity="error">{errorText(hours.error)}</Alert> : null}
    </SectionCard>
  );
}

export function BusinessHoursEditor({ initial, queryKey }: { initial: BusinessHours; queryKey: unknown[] }) {
  const { t } = useTranslation();
  const { canManage } = useAccess('your_account');
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const queryClient = useQueryClient();
  const [value, setValue] = useState<BusinessHoursBody>(() => ({ enabled: initial.enabled, time_zone: initial.time_zone, days: initial.days, away_message: initial.away_message }));
  const [saving, setSaving] = useState(false);
  useEffect(() => setValue({ enabled: initial.enabled, time_zone: initial.time_zone, days: initial.days, away_message: initial.away_message }), [initial]);
  const zones = useMemo(() => timeZones(value.time_zone), [value.time_zone]);
  const readOnly = !canManage;

  const setDay = (day: Weekday, intervals: BusinessHoursBody['days'][Weekday]) => setValue((v) => ({ ...v, days: { ...v.days, [day]: intervals } }));
  const problems = WEEKDAYS.some((d) => value.days[d].some((i) => intervalProblem(i.open, i.close)));
  const awayBlank = value.enabled && !value.away_message.trim();

  const save = async () => {
    setSaving(true);
    try {
      await http.put(PATH, value);
      await queryClient.invalidateQueries({ queryKey });
      alert.success(t('account.hours.saved'));
    } catch (error) {
      alert.error(t('account.hours.error', { error: errorText(error) }));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack spacing={2} data-testid="business-hours">
      <Stack direction="row" spacing={1} alignItems="center" flexWrap="wrap">
        <FormControlLabel
          control={<Switch checked={value.enabled} disabled={readOnly} onChange={(e) => setValue((v) => ({ ...v, enabled: e.target.checked }))} />}
          label={t('account.hours.enabled')}
        />
        {initial.enabled && <Chip size="small" color={initial.open_now ? 'success' : 'default'} label={t(initial.open_now ? 'account.hours.openNow' : 'account.hours.closedNow')} />}
      </Stack>
      <Autocomplete
        options={zones}
        value={value.time_zone}
        disableClearable
        disabled={readOnly}
        onChange={(_e, zone) => zone && setValue((v) => ({ ...v, time_zone: zone }))}
        renderInput={(params) => <TextField {...params} label={t('account.hours.timeZone')} />}
        sx={{ maxWidth: 360 }}
      />
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0 }} aria-label={t('account.hours.week')}>
        {WEEKDAYS.map((day) => {
          const intervals = value.days[day];
          const dayName = t(`account.hours.days.${day}`);
          return (
            <Box component="li" key={day} data-testid={`hours-${day}`} sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', py: 1, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap' }}>
              <Box sx={{ width: 150, display: 'flex', alignItems: 'center' }}>
                <FormControlLabel
                  control={
                    <Switch
                      size="small"
                      checked={intervals.length > 0}
                      disabled={readOnly}
                      onChange={(e) => setDay(day, e.target.checked ? [{ open: '09:00', close: '17:00' }] : [])}
                      slotProps={{ input: { 'aria-label': t('account.hours.openOn', { day: dayName }) } }}
                    />
                  }
                  label={dayName}
                />
              </Box>
              {intervals.length === 0 ? (
                <Typography color="text.secondary" sx={{ py: 1 }}>
                  {t('account.hours.closed')}
                </Typography>
              ) : (
                <Stack spacing={1}>
                  {intervals.map((interval, index) => {
                    const problem = intervalProblem(interval.open, interval.close);
                    const update = (patch: Partial<typeof interval>) => setDay(day, intervals.map((it, k) => (k === index ? { ...it, ...patch } : it)));
                    return (
                      <Stack key={index} direction="row" spacing={1} alignItems="flex-start">
                        <TextField
                          size="small"
                          type="time"
                          label={t('account.hours.opens')}
                          value={interval.open}
                          disabled={readOnly}
                          onChange={(e) => update({ open: e.target.value })}
                          slotProps={{ htmlInput: { 'aria-label': t('account.hours.opensOn', { day: dayName, n: index + 1 }) }, inputLabel: { shrink: true } }}
                        />
                        <TextField
                          size="small"
                          type="time"
                          label={t('account.hours.closes')}
                          value={interval.close}
                          disabled={readOnly}
                          error={problem !== null}
                          helperText={problem === 'order' ? t('account.hours.closeBeforeOpen') : problem === 'invalid' ? t('account.hours.invalidTime') : undefined}
                          onChange={(e) => update({ close: e.target.value })}
                          slotProps={{ htmlInput: { 'aria-label': t('account.hours.closesOn', { day: dayName, n: index + 1 }) }, inputLabel: { shrink: true } }}
                        />
                        {!readOnly && (
                          <IconButton aria-label={t('account.hours.remove', { day: dayName, n: index + 1 })} onClick={() => setDay(day, intervals.filter((_it, k) => k !== index))}>
                            <MdiIcon path={mdiClose} />
                          </IconButton>
                        )}
                      </Stack>
                    );
                  })}
                  {!readOnly && intervals.length < MAX_INTERVALS_PER_DAY && (
                    <Box>
                      <Button size="small" startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setDay(day, [...intervals, { open: intervals[intervals.length - 1].close === '24:00' ? '23:00' : intervals[intervals.length - 1].close, close: '24:00' }])}>
                        {t('account.hours.add', { day: dayName })}
                      </Button>
                    </Box>
                  )}
                </Stack>
              )}
            </Box>
          );
        })}
      </Box>
      <TextField
        label={t('account.hours.awayMessage')}
        value={value.away_message}
        disabled={readOnly}
        multiline
        minRows={2}
        error={awayBlank}
        helperText={awayBlank ? t('account.hours.awayRequired') : t('account.hours.awayHelp')}
        onChange={(e) => setValue((v) => ({ ...v, away_message: e.target.value }))}
        slotProps={{ htmlInput: { maxLength: AWAY_MESSAGE_MAX } }}
      />
      {readOnly ? (
        <Alert severity="info" variant="outlined">
          {t('account.hours.readOnly')}
        </Alert>
      ) : (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <Button variant="contained" onClick={() => void save()} disabled={saving || problems || awayBlank} sx={{ fontWeight: 600 }}>
            {t('account.hours.save')}
          </Button>
        </Box>
      )}
    </Stack>
  );
}
