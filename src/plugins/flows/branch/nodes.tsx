/**
 * The branching view's nodes: the flow's start (its intro message) and one node per step (message,
 * type, its options each with the dot a link to the next step is dragged from, and a "next" dot).
 */
import { createContext, memo, useContext } from 'react';
import { Box, Chip, IconButton, Stack, Typography } from '@mui/material';
import { mdiFlagVariantOutline, mdiPencilOutline, mdiPlus } from '@mdi/js';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { FLOW_EXTRA_LIMITS } from '../../../../contract/flows';
import { IN_HANDLE, NEXT_HANDLE, OPTION_ROW_HEIGHT, optionHandle, START_HEIGHT, START_WIDTH, STEP_WIDTH, stepHeight, type StartNode, type StepNode } from './model';

export interface BranchActions {
  readOnly: boolean;
  editStep(stepId: string): void;
  addOption(stepId: string): void;
}
export const BranchActionsContext = createContext<BranchActions>({ readOnly: true, editStep: () => undefined, addOption: () => undefined });

const handleStyle = { width: 12, height: 12, border: '2px solid white' };

export const StartNodeView = memo(function StartNodeView({ data }: NodeProps<StartNode>) {
  const { t } = useTranslation();
  return (
    <Box
      data-testid="branch-start-node"
      sx={{ width: START_WIDTH, height: START_HEIGHT, boxSizing: 'border-box', px: 1.5, py: 1, borderRadius: 3, bgcolor: 'success.dark', color: 'common.white', boxShadow: 1 }}
    >
      <Stack direction="row" spacing={0.5} alignItems="center">
        <MdiIcon path={mdiFlagVariantOutline} fontSize="small" />
        <Typography variant="body2" fontWeight={700}>
          {t('flowBranch.start.label')}
        </Typography>
      </Stack>
      <Typography variant="caption" component="p" noWrap title={data.intro}>
        {data.intro.trim() || t('flowBranch.start.noIntro')}
      </Typography>
      <Handle type="source" position={Position.Bottom} isConnectable={false} style={{ ...handleStyle, background: '#1b5e20' }} />
    </Box>
  );
});

export const StepNodeView = memo(function StepNodeView({ data, selected }: NodeProps<StepNode>) {
  const { t } = useTranslation();
  const actions = useContext(BranchActionsContext);
  const { step } = data;
  const label = step.step_msg.trim() || t('flowBranch.node.noMessage');
  const full = step.options.length >= FLOW_EXTRA_LIMITS.options;
  return (
    <Box
      data-testid="branch-step-node"
      data-step-id={step.step_id}
      sx={{
        width: STEP_WIDTH,
        height: stepHeight(step),
        boxSizing: 'border-box',
        borderRadius: 2,
        bgcolor: 'background.paper',
        color: 'text.primary',
        border: '2px solid',
        borderColor: selected ? 'primary.main' : 'divider',
        boxShadow: selected ? 4 : 1,
        display: 'flex',
        flexDirection: 'column',
      }}
    >
      <Handle id={IN_HANDLE} type="target" position={Position.Top} title={t('flowBranch.node.inHandle', { step: step.step_id })} style={{ ...handleStyle, background: '#1a2b4c' }} />
      <Box sx={{ px: 1.25, pt: 1, flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        <Stack direction="row" alignItems="center" spacing={0.5}>
          <Typography variant="caption" sx={{ fontFamily: 'monospace', color: 'text.secondary' }} noWrap>
            {step.step_id}
          </Typography>
          <Chip size="small" label={t(`flowBranch.node.types.${step.type}`)} sx={{ height: 20 }} variant="outlined" />
          {data.isFirst && <Chip size="small" color="success" label={t('flowBranch.node.first')} sx={{ height: 20 }} />}
          <Box sx={{ flex: 1 }} />
          {!actions.readOnly && (
            <>
              <ConsoleTooltip title={t('flowBranch.node.editStep')}>
                <IconButton size="small" className="nodrag" aria-label={`${t('flowBranch.node.editStep')}: ${step.step_id}`} onClick={() => actions.editStep(step.step_id)}>
                  <MdiIcon path={mdiPencilOutline} fontSize="small" />
                </IconButton>
              </ConsoleTooltip>
              <ConsoleTooltip title={t('flowBranch.node.addOption')}>
                <span>
                  <IconButton
                    size="small"
                    className="nodrag"
                    disabled={full}
                    aria-label={`${t('flowBranch.node.addOption')}: ${step.step_id}`}
                    onClick={() => actions.addOption(step.step_id)}
                  >
                    <MdiIcon path={mdiPlus} fontSize="small" />
                  </IconButton>
                </span>
              </ConsoleTooltip>
            </>
          )}
        </Stack>
        <Typography
          variant="body2"
          data-testid="branch-step-label"
          sx={{ fontWeight: 600, overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', wordBreak: 'break-word' }}
        >
          {label}
        </Typography>
      </Box>
      {step.options.map((option, i) => (
        <Box
          key={i}
          data-testid="branch-option"
          data-option-index={i}
          sx={{
            position: 'relative',
            height: OPTION_ROW_HEIGHT,
            boxSizing: 'border-box',
            mx: 1,
            mb: 0.5,
            px: 1,
            borderRadius: 99,
            bgcolor: 'secondary.main',
            color: 'secondary.contrastText',
            display: 'flex',
            alignItems: 'center',
            fontSize: 13,
            fontWeight: 600,
          }}
        >
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {option.text}
          </Box>
          <Handle
            id={optionHandle(i)}
            type="source"
            position={Position.Right}
            title={t('flowBranch.node.optionHandle', { option: option.text, step: step.step_id })}
            style={{ ...handleStyle, background: '#1a2b4c', right: -14 }}
          />
        </Box>
      ))}
      <Box sx={{ height: 10 }} />
      <Handle
        id={NEXT_HANDLE}
        type="source"
        position={Position.Bottom}
        title={t('flowBranch.node.nextHandle', { step: step.step_id })}
        style={{ ...handleStyle, background: '#e65100' }}
      />
    </Box>
  );
});

export const branchNodeTypes = { start: StartNodeView, step: StepNodeView };
