/**
 * The flow's steps as a sortable list (@dnd-kit): drag a step by its handle with the mouse or touch,
 * or focus the handle and use the keyboard (space/enter to pick up, arrows to move, space/enter to
 * drop, escape to cancel), with spoken announcements; plus move up/down buttons.
 */
import { memo, type ReactNode } from 'react';
import { Box, Button, Chip, IconButton, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { mdiArrowDown, mdiArrowUp, mdiDeleteOutline, mdiDragVertical, mdiPlus } from '@mdi/js';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { FLOW_EXTRA_LIMITS, FLOW_STEP_TYPES, type FlowStats } from '../../../../contract/flows';
import { moveItem, newKey, nextStepId, removeStep, renameStep, type DraftStep } from '../model/draft';
import { translateRule } from '../model/validation';

const IN_ORDER = '__in_order__';

interface StepCardProps {
  step: DraftStep;
  index: number;
  count: number;
  allSteps: StepChoice[];
  problems: Record<string, string>;
  stats: { reached: number; left: number } | undefined;
  readOnly: boolean;
  onChange: (step: DraftStep) => void;
  onRename: (stepId: string) => void;
  onRemove: () => void;
  onMove: (to: number) => void;
}

/** A step as the next-step choices name it: its message (what the customer gets), its id beside. */
export interface StepChoice {
  id: string;
  message: string;
}

/** "Pick one of our tours… · step_2": a step is recognised by what it says, not by step_1. */
export function choiceLabel(step: StepChoice, max = 48): string {
  const text = step.message.replace(/\s+/g, ' ').trim();
  if (!text) return step.id;
  return `${text.length > max ? `${text.slice(0, max - 1)}…` : text} · ${step.id}`;
}

function NextSelect({ label, value, onChange, steps, self, error, disabled }: { label: string; value: string | null; onChange: (v: string | null) => void; steps: StepChoice[]; self: string; error?: string | null; disabled: boolean }) {
  const ids = steps.map((s) => s.id);
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value ?? IN_ORDER}
      onChange={(e) => onChange(e.target.value === IN_ORDER ? null : e.target.value)}
      error={!!error}
      helperText={error ?? undefined}
      disabled={disabled}
      sx={{ minWidth: 200 }}
    >
      <MenuItem value={IN_ORDER}>{t('flows.editor.steps.nextInOrder')}</MenuItem>
      {steps
        .filter((step) => step.id !== self && step.id !== '')
        .map((step) => (
          <MenuItem key={step.id} value={step.id}>
            {choiceLabel(step)}
          </MenuItem>
        ))}
      {value !== null && !ids.includes(value) && <MenuItem value={value}>{value}</MenuItem>}
    </TextField>
  );
}

const StepCard = memo(function StepCard(props: StepCardProps) {
  const { t } = useTranslation();
  const { step, index, problems, readOnly } = props;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: step.key, disabled: readOnly });
  const p = (field: string) => translateRule(t, problems[`steps.${index}.${field}`]);
  const label = t('flows.editor.steps.step', { n: index + 1, id: step.step_id || '…' });
  return (
    <Paper
      ref={setNodeRef}
      component="li"
      variant="outlined"
      data-testid="flow-step"
      data-step-id={step.step_id}
      aria-label={label}
      sx={{ p: 2, listStyle: 'none', transform: CSS.Transform.toString(transform), transition, position: 'relative', zIndex: isDragging ? 2 : undefined, boxShadow: isDragging ? 6 : undefined, bgcolor: 'background.paper' }}
    >
      {/* Wraps on a phone: the step's figures and its buttons go under its title rather than past the screen's edge. */}
      <Stack direction="row" spacing={1} useFlexGap alignItems="center" sx={{ mb: 1.5, flexWrap: 'wrap' }}>
        <ConsoleTooltip title={t('flows.editor.steps.handle', { id: step.step_id })}>
          <IconButton
            ref={setActivatorNodeRef}
            size="small"
            {...attributes}
            {...listeners}
            aria-label={t('flows.editor.steps.handle', { id: step.step_id })}
            aria-roledescription={undefined}
            disabled={readOnly}
            sx={{ cursor: 'grab', touchAction: 'none' }}
          >
            <MdiIcon path={mdiDragVertical} />
          </IconButton>
        </ConsoleTooltip>
        <Typography variant="subtitle1" component="h3" fontWeight={600} sx={{ flex: 1 }}>
          {label}
        </Typography>
        {props.stats && (
          <Chip size="small" variant="outlined" data-testid="step-stats" label={t('flows.editor.steps.stats', props.stats)} aria-label={t('flows.editor.steps.statsLabel', { id: step.step_id, ...props.stats })} />
        )}
        <IconButton size="small" aria-label={t('flows.editor.steps.moveUp', { id: step.step_id })} disabled={readOnly || index === 0} onClick={() => props.onMove(index - 1)}>
          <MdiIcon path={mdiArrowUp} />
        </IconButton>
        <IconButton size="small" aria-label={t('flows.editor.steps.moveDown', { id: step.step_id })} disabled={readOnly || index === props.count - 1} onClick={() => props.onMove(index + 1)}>
          <MdiIcon path={mdiArrowDown} />
        </IconButton>
        <IconButton size="small" color="error" aria-label={t('flows.editor.steps.remove', { id: step.step_id })} disabled={readOnly} onClick={props.onRemove}>
          <MdiIcon path={mdiDeleteOutline} />
        </IconButton>
      </Stack>
      <Stack spacing={1.5}>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
          <TextField
            size="small"
            label={t('flows.editor.steps.step_id')}
            value={step.step_id}
            onChange={(e) => props.onRename(e.target.value)}
            error={!!p('step_id')}
            helperText={p('step_id') ?? undefined}
            disabled={readOnly}
            slotProps={{ htmlInput: { maxLength: FLOW_EXTRA_LIMITS.stepId } }}
          />
          <TextField select size="small" label={t('flows.editor.steps.type')} value={step.type} disabled={readOnly} onChange={(e) => props.onChange({ ...step, type: e.target.value as DraftStep['type'] })} sx={{ minWidth: 140 }}>
            {FLOW_STEP_TYPES.map((type) => (
              <MenuItem key={type} value={type}>
                {t(`flows.editor.steps.types.${type}`)}
              </MenuItem>
            ))}
          </TextField>
          <NextSelect label={t('flows.editor.steps.next')} value={step.next_step_id} onChange={(v) => props.onChange({ ...step, next_step_id: v })} steps={props.allSteps} self={step.step_id} error={p('next_step_id')} disabled={readOnly} />
        </Stack>
        <TextField
          multiline
          minRows={2}
          size="small"
          label={t('flows.editor.steps.step_msg')}
          value={step.step_msg}
          onChange={(e) => props.onChange({ ...step, step_msg: e.target.value })}
          error={!!p('step_msg')}
          helperText={p('step_msg') ?? `${step.step_msg.length}/${FLOW_EXTRA_LIMITS.stepMsg}`}
          disabled={readOnly}
          required
        />
        {step.type === 'options' && (
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
              {t('flows.editor.steps.options')}
            </Typography>
            <Stack spacing={1}>
              {step.options.map((option, j) => {
                const textProblem = p(`options.${j}.text`);
                return (
                  <Stack key={j} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'flex-start' }} data-testid="flow-option">
                    <TextField
                      size="small"
                      label={t('flows.editor.steps.option', { n: j + 1 })}
                      value={option.text}
                      onChange={(e) => props.onChange({ ...step, options: step.options.map((o, k) => (k === j ? { ...o, text: e.target.value } : o)) })}
                      error={!!textProblem}
                      helperText={textProblem ?? `${option.text.length}/${FLOW_EXTRA_LIMITS.optionText}`}
                      disabled={readOnly}
                    />
                    <NextSelect
                      label={t('flows.editor.steps.optionNext', { n: j + 1 })}
                      value={option.next_step_id}
                      onChange={(v) => props.onChange({ ...step, options: step.options.map((o, k) => (k === j ? { ...o, next_step_id: v } : o)) })}
                      steps={props.allSteps}
                      self={step.step_id}
                      error={p(`options.${j}.next_step_id`)}
                      disabled={readOnly}
                    />
                    <IconButton size="small" color="error" aria-label={t('flows.editor.steps.removeOption', { n: j + 1 })} disabled={readOnly} onClick={() => props.onChange({ ...step, options: step.options.filter((_, k) => k !== j) })}>
                      <MdiIcon path={mdiDeleteOutline} />
                    </IconButton>
                  </Stack>
                );
              })}
            </Stack>
            <Button
              size="small"
              startIcon={<MdiIcon path={mdiPlus} />}
              disabled={readOnly || step.options.length >= FLOW_EXTRA_LIMITS.options}
              onClick={() => props.onChange({ ...step, options: [...step.options, { text: '', next_step_id: null }] })}
              sx={{ mt: 1 }}
            >
              {t('flows.editor.steps.addOption')}
            </Button>
          </Box>
        )}
      </Stack>
    </Paper>
  );
});

export function StepList(props: { steps: DraftStep[]; onChange: (steps: DraftStep[]) => void; problems: Record<string, string>; stats: FlowStats | undefined; readOnly: boolean; header?: ReactNode }) {
  const { t } = useTranslation();
  const { steps, onChange } = props;
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const idOf = (key: unknown) => steps.find((s) => s.key === key)?.step_id ?? '';
  const position = (key: unknown) => steps.findIndex((s) => s.key === key) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => t('flows.editor.steps.picked', { id: idOf(active.id) }),
    onDragOver: ({ active, over }) => (over ? t('flows.editor.steps.moved', { id: idOf(active.id), n: position(over.id) }) : undefined),
    onDragEnd: ({ active, over }) => (over ? t('flows.editor.steps.dropped', { id: idOf(active.id), n: position(over.id) }) : undefined),
    onDragCancel: ({ active }) => t('flows.editor.steps.cancelled', { id: idOf(active.id) }),
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = steps.findIndex((s) => s.key === active.id);
    const to = steps.findIndex((s) => s.key === over.id);
    if (from >= 0 && to >= 0) onChange(moveItem(steps, from, to));
  };
  const allSteps = steps.map((s) => ({ id: s.step_id, message: s.step_msg }));
  return (
    <Box>
      {steps.length === 0 && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('flows.editor.steps.none')}
        </Typography>
      )}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd} accessibility={{ announcements, screenReaderInstructions: { draggable: t('flows.editor.steps.handle', { id: '' }) } }}>
        <SortableContext items={steps.map((s) => s.key)} strategy={verticalListSortingStrategy}>
          <Stack component="ol" spacing={1.5} sx={{ p: 0, m: 0 }} aria-label={t('flows.editor.sections.steps')} data-testid="flow-steps">
            {steps.map((step, i) => (
              <StepCard
                key={step.key}
                step={step}
                index={i}
                count={steps.length}
                allSteps={allSteps}
                problems={props.problems}
                stats={props.stats ? (props.stats.steps[step.step_id] ?? { reached: 0, left: 0 }) : undefined}
                readOnly={props.readOnly}
                onChange={(next) => onChange(steps.map((s) => (s.key === step.key ? next : s)))}
                onRename={(id) => onChange(renameStep(steps, step.key, id))}
                onRemove={() => onChange(removeStep(steps, step.key))}
                onMove={(to) => onChange(moveItem(steps, i, to))}
              />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <Button
        startIcon={<MdiIcon path={mdiPlus} />}
        disabled={props.readOnly || steps.length >= FLOW_EXTRA_LIMITS.steps}
        onClick={() => onChange([...steps, { key: newKey(), step_id: nextStepId(steps), next_step_id: null, step_msg: '', type: 'text', options: [] }])}
        sx={{ mt: 1.5 }}
      >
        {t('flows.editor.steps.add')}
      </Button>
    </Box>
  );
}
