/**
 * The side panel of the branching view: one step's message and type, its options (add, rename,
 * remove, where each leads) and its next step. The selects are the keyboard's way to make the links
 * the canvas makes by dragging. Every edit is new steps handed to the page (saved with "Save").
 */
import { Box, Button, Divider, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { mdiClose, mdiDeleteOutline, mdiPlus } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { FLOW_EXTRA_LIMITS, FLOW_STEP_TYPES, type FlowStep, type FlowStepType } from '../../../../contract/flows';
import { addOption, removeOption, renameOption, setNextStep, setOptionTarget, setStepMessage, setStepType } from './model';

export const PANEL_WIDTH = 360;

function stepChoiceLabel(step: FlowStep): string {
  const text = step.step_msg.trim();
  return text ? `${step.step_id} · ${text}` : step.step_id;
}

export function StepPanel(props: { steps: FlowStep[]; step: FlowStep; onChange: (steps: FlowStep[]) => void; onDelete: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const { steps, step, onChange } = props;
  const others = steps.filter((s) => s.step_id !== step.step_id);
  const full = step.options.length >= FLOW_EXTRA_LIMITS.options;
  const messageTooLong = step.step_msg.length > FLOW_EXTRA_LIMITS.stepMsg;

  const targetSelect = (label: string, value: string | null, onPick: (v: string | null) => void, testId: string, candidates: FlowStep[]) => (
    <TextField
      select
      size="small"
      fullWidth
      label={label}
      value={value ?? ''}
      onChange={(e) => onPick(e.target.value || null)}
      slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
      data-testid={testId}
    >
      <MenuItem value="">{t('flowBranch.panel.inOrder')}</MenuItem>
      {candidates.map((s) => (
        <MenuItem key={s.step_id} value={s.step_id} sx={{ maxWidth: PANEL_WIDTH + 40 }}>
          <Typography variant="inherit" noWrap>
            {stepChoiceLabel(s)}
          </Typography>
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box
      component="aside"
      aria-labelledby="branch-panel-title"
      data-testid="branch-step-panel"
      sx={{ width: PANEL_WIDTH, flexShrink: 0, borderLeft: 1, borderColor: 'divider', bgcolor: 'background.paper', overflowY: 'auto', p: 2 }}
    >
      <Stack direction="row" alignItems="center" sx={{ mb: 1.5 }}>
        <Typography id="branch-panel-title" variant="subtitle1" component="h2" fontWeight={700} sx={{ flex: 1 }} noWrap>
          {t('flowBranch.panel.title', { id: step.step_id })}
        </Typography>
        <ConsoleTooltip title={t('flowBranch.panel.close')}>
          <IconButton aria-label={t('flowBranch.panel.close')} onClick={props.onClose}>
            <MdiIcon path={mdiClose} />
          </IconButton>
        </ConsoleTooltip>
      </Stack>
      <Stack spacing={2}>
        <TextField
          label={t('flowBranch.panel.message')}
          value={step.step_msg}
          multiline
          minRows={3}
          fullWidth
          required
          error={!step.step_msg.trim() || messageTooLong}
          helperText={`${step.step_msg.length} / ${FLOW_EXTRA_LIMITS.stepMsg}`}
          onChange={(e) => onChange(setStepMessage(steps, step.step_id, e.target.value))}
          slotProps={{ htmlInput: { 'data-testid': 'branch-step-message' } }}
        />
        <TextField
          select
          size="small"
          label={t('flowBranch.panel.type')}
          value={step.type}
          onChange={(e) => onChange(setStepType(steps, step.step_id, e.target.value as FlowStepType))}
          data-testid="branch-step-type"
        >
          {FLOW_STEP_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {t(`flowBranch.node.types.${type}`)}
            </MenuItem>
          ))}
        </TextField>
        {targetSelect(t('flowBranch.panel.nextStep'), step.next_step_id, (v) => onChange(setNextStep(steps, step.step_id, v)), 'branch-next-step', others)}
        <Divider />
        <Typography variant="subtitle2" component="h3">
          {t('flowBranch.panel.options')}
        </Typography>
        {step.options.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {t('flowBranch.panel.noOptions')}
          </Typography>
        )}
        {step.options.map((option, i) => (
          <Stack key={i} spacing={1} data-testid="branch-panel-option">
            <Stack direction="row" spacing={1} alignItems="flex-start">
              <TextField
                size="small"
                fullWidth
                label={t('flowBranch.panel.option', { n: i + 1 })}
                value={option.text}
                required
                error={!option.text.trim() || option.text.length > FLOW_EXTRA_LIMITS.optionText}
                helperText={`${option.text.length} / ${FLOW_EXTRA_LIMITS.optionText}`}
                onChange={(e) => onChange(renameOption(steps, step.step_id, i, e.target.value))}
              />
              <ConsoleTooltip title={t('flowBranch.panel.removeOption', { n: i + 1 })}>
                <IconButton aria-label={t('flowBranch.panel.removeOption', { n: i + 1 })} onClick={() => onChange(removeOption(steps, step.step_id, i))}>
                  <MdiIcon path={mdiDeleteOutline} />
                </IconButton>
              </ConsoleTooltip>
            </Stack>
            {targetSelect(t('flowBranch.panel.optionTarget', { n: i + 1 }), option.next_step_id, (v) => onChange(setOptionTarget(steps, step.step_id, i, v)), `branch-option-target-${i}`, steps)}
          </Stack>
        ))}
        <Box>
          <Button startIcon={<MdiIcon path={mdiPlus} />} disabled={full} onClick={() => onChange(addOption(steps, step.step_id))}>
            {t('flowBranch.panel.addOption')}
          </Button>
          {full && (
            <Typography variant="caption" color="text.secondary" component="p">
              {t('flowBranch.panel.tooManyOptions', { max: FLOW_EXTRA_LIMITS.options })}
            </Typography>
          )}
        </Box>
        <Divider />
        <Box>
          <Button color="error" startIcon={<MdiIcon path={mdiDeleteOutline} />} onClick={props.onDelete}>
            {t('flowBranch.panel.deleteStep')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
