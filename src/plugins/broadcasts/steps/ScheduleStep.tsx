import { useEffect, useMemo } from 'react';
import { Alert, Autocomplete, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { zonedTimeToUtc } from '../../../../contract/broadcasts';
import type { BroadcastDraft } from '../model/draft';
import { browserTimeZone, isValidTimeZone, wallClock } from '../model/schedule';
import type { StepProps } from './types';

/** Minutes ahead a "later" schedule starts at by default. */
const DEFAULT_LEAD_MINUTES = 10;

function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [browserTimeZone()];
  } catch {
    return [browserTimeZone()];
  }
}

/** The instant the draft's schedule designates, or null when "now" or incomplete. */
export function scheduledInstant(draft: BroadcastDraft): Date | null {
  const { mode, date, time, timeZone } = draft.schedule;
  if (mode !== 'later' || !isValidTimeZone(timeZone)) return null;
  return zonedTimeToUtc(`${date}T${time}`, timeZone);
}

/** Why the schedule cannot be used: 'incomplete', 'past'; null when fine. */
export function scheduleProblem(draft: BroadcastDraft, now: Date = new Date()): 'incomplete' | 'past' | null {
  if (draft.schedule.mode === 'now') return null;
  const at = scheduledInstant(draft);
  if (!at) return 'incomplete';
  return at.getTime() <= now.getTime() ? 'past' : null;
}

/** Step 3: send now, or at a date and time in the chosen time zone (the browser's by default). */
export function ScheduleStep({ draft, update }: StepProps) {
  const { t, i18n } = useTranslation();
  const zones = useMemo(timeZones, []);
  const zone = isValidTimeZone(draft.schedule.timeZone) ? draft.schedule.timeZone : browserTimeZone();

  useEffect(() => {
    if (!draft.schedule.timeZone) update({ schedule: { ...draft.schedule, timeZone: zone } });
  }, [draft.schedule, zone, update]);

  const setMode = (mode: 'now' | 'later') => {
    if (mode === 'later' && (!draft.schedule.date || !draft.schedule.time)) {
      const { date, time } = wallClock(new Date(Date.now() + DEFAULT_LEAD_MINUTES * 60_000), zone);
      update({ schedule: { ...draft.schedule, mode, date, time, timeZone: zone } });
    } else update({ schedule: { ...draft.schedule, mode } });
  };

  const problem = scheduleProblem(draft);
  const at = scheduledInstant(draft);
  return (
    <Stack spacing={3}>
      <FormControl>
        <FormLabel id="broadcast-when">{t('broadcasts.schedule.when')}</FormLabel>
        <RadioGroup aria-labelledby="broadcast-when" value={draft.schedule.mode} onChange={(e) => setMode(e.target.value as 'now' | 'later')}>
          <FormControlLabel value="now" control={<Radio />} label={t('broadcasts.schedule.now')} />
          <FormControlLabel value="later" control={<Radio />} label={t('broadcasts.schedule.later')} />
        </RadioGroup>
      </FormControl>
      {draft.schedule.mode === 'later' && (
        <Stack spacing={2}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
            <TextField
              type="date"
              label={t('broadcasts.schedule.date')}
              value={draft.schedule.date}
              onChange={(e) => update({ schedule: { ...draft.schedule, date: e.target.value } })}
              slotProps={{ inputLabel: { shrink: true } }}
              required
            />
            <TextField
              type="time"
              label={t('broadcasts.schedule.time')}
              value={draft.schedule.time}
              onChange={(e) => update({ schedule: { ...draft.schedule, time: e.target.value } })}
              slotProps={{ inputLabel: { shrink: true } }}
              required
            />
            <Autocomplete
              options={zones}
              value={zone}
              disableClearable
              onChange={(_, value) => value && update({ schedule: { ...draft.schedule, timeZone: value } })}
              sx={{ minWidth: 260 }}
              renderInput={(params) => <TextField {...params} label={t('broadcasts.schedule.timeZone')} />}
            />
          </Stack>
          {problem === 'past' && <Alert severity="error">{t('broadcasts.schedule.past')}</Alert>}
          {problem === 'incomplete' && <Alert severity="info">{t('broadcasts.schedule.incomplete')}</Alert>}
          {at && !problem && (
            <Typography color="text.secondary" data-testid="schedule-local">
              {t('broadcasts.schedule.yourTime', { date: at.toLocaleString(i18n.language, { dateStyle: 'full', timeStyle: 'short' }) })}
            </Typography>
          )}
        </Stack>
      )}
    </Stack>
  );
}
