/**
 * The canvas's node types (spec §2): the init-step node, step nodes (first message, media, actions,
 * warnings) and option button nodes under their step.
 */
import { memo, createContext, useContext } from 'react';
import { Box, Chip, IconButton, Stack, Typography } from '@mui/material';
import { alpha } from '@mui/material/styles';
import { mdiAlertOutline, mdiFlagVariantOutline, mdiImageOutline, mdiLightningBoltOutline, mdiPencilOutline, mdiPlus } from '@mdi/js';
import { Handle, Position, type NodeProps } from '@xyflow/react';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { NEXT_HANDLE, OPTIONS_HANDLE, type InitNode, type OptionNode, type StepNode } from '../model/graph';
import { OPTION_HEIGHT, OPTION_WIDTH, STEP_HEIGHT, STEP_WIDTH } from '../model/layout';
import type { StepWarning } from '../model/warnings';
import { useProblemText } from './problemText';

/** What a node's buttons do (given by the canvas page). */
export interface CanvasActions {
  addOption(stepId: string): void;
  editStep(stepId: string): void;
  readOnly: boolean;
}
export const CanvasActionsContext = createContext<CanvasActions>({ addOption: () => undefined, editStep: () => undefined, readOnly: true });

export function useWarningText() {
  const { t } = useTranslation();
  return (w: StepWarning) => t(`bots.canvas.warning.${w.code}`, { ...w });
}

const handleStyle = { width: 12, height: 12, border: '2px solid white' };

export const InitStepNode = memo(function InitStepNode({ data }: NodeProps<InitNode>) {
  return (
    <Box
      data-testid="init-node"
      sx={{
        width: 120,
        py: 1,
        borderRadius: 99,
        bgcolor: 'success.main',
        color: 'success.contrastText',
        textAlign: 'center',
        fontWeight: 700,
        boxShadow: 1,
      }}
    >
      <Stack direction="row" spacing={0.5} justifyContent="center" alignItems="center">
        <MdiIcon path={mdiFlagVariantOutline} fontSize="small" />
        <Typography variant="body2" fontWeight={700}>
          {data.label}
        </Typography>
      </Stack>
      <Handle type="source" position={Position.Bottom} style={{ ...handleStyle, background: '#2e7d32' }} />
    </Box>
  );
});

export const StepNodeView = memo(function StepNodeView({ id, data, selected }: NodeProps<StepNode>) {
  const { t } = useTranslation();
  const actions = useContext(CanvasActionsContext);
  const warningText = useWarningText();
  const { describe } = useProblemText();
  const { step } = data;
  const media = step.messages.find((m) => m.media_url || m.type !== 'text');
  const hasWarnings = data.warnings.length > 0;
  const hasProblems = data.problems.length > 0;
  const problemTexts = data.problems.map(describe);
  return (
    <Box
      data-testid="step-node"
      data-step-id={id}
      data-active={data.active ? 'true' : undefined}
      sx={(theme) => ({
        width: STEP_WIDTH,
        height: STEP_HEIGHT,
        boxSizing: 'border-box',
        p: 1.25,
        borderRadius: 2,
        bgcolor: 'background.paper',
        color: 'text.primary',
        border: '2px solid',
        borderColor: data.active ? 'secondary.main' : selected ? 'primary.main' : hasProblems ? 'error.main' : hasWarnings ? 'warning.main' : 'divider',
        boxShadow: data.active ? `0 0 0 4px ${alpha(theme.palette.secondary.main, 0.45)}` : selected ? 4 : 1,
        display: 'flex',
        flexDirection: 'column',
        gap: 0.5,
      })}
    >
      <Handle type="target" position={Position.Top} style={{ ...handleStyle, background: '#1a2b4c' }} />
      <Stack direction="row" alignItems="center" spacing={0.5}>
        {data.isStart && <Chip size="small" color="success" label={t('bots.canvas.startStep')} sx={{ height: 20 }} />}
        {data.isFallback && (
          <ConsoleTooltip title={t('bots.canvas.fallbackHelp')}>
            <Chip size="small" color="info" data-testid="fallback-marker" label={t('bots.canvas.fallback')} sx={{ height: 20 }} />
          </ConsoleTooltip>
        )}
        <Box sx={{ flex: 1 }} />
        {hasWarnings && (
          <ConsoleTooltip title={data.warnings.map(warningText).join(' · ')}>
            <Box
              component="span"
              role="img"
              tabIndex={0}
              aria-label={`${t('bots.canvas.warnings')}: ${data.warnings.map(warningText).join(' ')}`}
              data-testid="step-warnings"
              data-codes={data.warnings.map((w) => w.code).join(' ')}
              sx={{ color: 'warning.dark', display: 'inline-flex', alignItems: 'center', gap: 0.25, fontSize: 12, fontWeight: 700 }}
            >
              <MdiIcon path={mdiAlertOutline} fontSize="small" />
              {data.warnings.length}
            </Box>
          </ConsoleTooltip>
        )}
        {!actions.readOnly && (
          <>
            <ConsoleTooltip title={t('bots.canvas.editStep')}>
              <IconButton size="small" className="nodrag" aria-label={`${t('bots.canvas.editStep')}: ${data.label}`} onClick={() => actions.editStep(id)}>
                <MdiIcon path={mdiPencilOutline} fontSize="small" />
              </IconButton>
            </ConsoleTooltip>
            <ConsoleTooltip title={t('bots.canvas.addOption')}>
              <IconButton size="small" className="nodrag" aria-label={`${t('bots.canvas.addOption')}: ${data.label}`} onClick={() => actions.addOption(id)}>
                <MdiIcon path={mdiPlus} fontSize="small" />
              </IconButton>
            </ConsoleTooltip>
          </>
        )}
      </Stack>
      <Typography
        variant="body2"
        data-testid="step-label"
        sx={{ fontWeight: 600, overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: hasProblems ? 2 : 3, WebkitBoxOrient: 'vertical', wordBreak: 'break-word' }}
      >
        {data.label}
      </Typography>
      <Box sx={{ flex: 1 }} />
      {hasProblems && (
        // What the step lacks, in words, on the node itself (the first one; all of them on hover and for screen readers).
        <ConsoleTooltip title={problemTexts.join(' · ')}>
          <Typography
            variant="caption"
            component="p"
            tabIndex={0}
            data-testid="step-problems"
            data-codes={data.problems.map((p) => p.code).join(' ')}
            aria-label={`${t('bots.problems.title')}: ${problemTexts.join(' ')}`}
            sx={{ color: 'error.main', fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', m: 0 }}
          >
            {data.problems.length > 1 ? `(${data.problems.length}) ` : ''}
            {problemTexts[0]}
          </Typography>
        </ConsoleTooltip>
      )}
      <Stack direction="row" spacing={0.5} alignItems="center" sx={{ color: 'text.secondary', minHeight: 20 }}>
        {media && (
          <ConsoleTooltip title={media.media_url ?? t(`bots.panel.types.${media.type}`)}>
            <Stack direction="row" spacing={0.25} alignItems="center">
              <MdiIcon path={mdiImageOutline} fontSize="small" />
              <Typography variant="caption">{t('bots.canvas.media', { type: t(`bots.panel.types.${media.type}`) })}</Typography>
            </Stack>
          </ConsoleTooltip>
        )}
        {step.actions.length > 0 && (
          <ConsoleTooltip title={step.actions.map((a) => t(`bots.panel.actionTypes.${a.type}`)).join(', ')}>
            <Stack direction="row" spacing={0.25} alignItems="center">
              <MdiIcon path={mdiLightningBoltOutline} fontSize="small" />
              <Typography variant="caption">{step.actions.map((a) => t(`bots.panel.actionTypes.${a.type}`)).join(', ')}</Typography>
            </Stack>
          </ConsoleTooltip>
        )}
      </Stack>
      <Handle id={OPTIONS_HANDLE} type="source" position={Position.Bottom} isConnectable={false} style={{ opacity: 0, pointerEvents: 'none' }} />
      <Handle
        id={NEXT_HANDLE}
        type="source"
        position={Position.Right}
        title={t('bots.panel.nextStep')}
        style={{ ...handleStyle, background: '#f57c00' }}
      />
    </Box>
  );
});

export const OptionNodeView = memo(function OptionNodeView({ data, selected }: NodeProps<OptionNode>) {
  const tooLong = data.option.text.length > 20;
  return (
    <Box
      data-testid="option-node"
      data-option-id={data.option.id}
      sx={{
        width: OPTION_WIDTH,
        height: OPTION_HEIGHT,
        boxSizing: 'border-box',
        px: 1,
        borderRadius: 99,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'secondary.main',
        color: 'secondary.contrastText',
        border: '2px solid',
        borderColor: selected ? 'primary.main' : tooLong ? 'warning.main' : 'transparent',
        fontSize: 13,
        fontWeight: 600,
        boxShadow: selected ? 3 : 0,
      }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} style={{ opacity: 0 }} />
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {data.label}
      </Box>
      <Handle type="source" position={Position.Bottom} style={{ ...handleStyle, background: '#1a2b4c' }} />
    </Box>
  );
});

export const nodeTypes = { init: InitStepNode, step: StepNodeView, option: OptionNodeView };
