/**
 * /flows/generic-flow/{botId}: the bot flow canvas (spec §2) on React Flow. The graph is edited on
 * screen and saved on its own to the bot's draft (useBotEditor, issue #25); each node shows what it
 * still lacks, Publish makes the draft live, the versions drawer lists what was live and restores it;
 * a side panel edits the selected step; the test chat runs the real runtime beside it and highlights
 * the step it is at.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from 'react';
import { Alert, Box, Button, CircularProgress, Divider, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import {
  mdiArrowLeft,
  mdiChatProcessingOutline,
  mdiCheckCircleOutline,
  mdiInformationOutline,
  mdiPlus,
  mdiRedo,
  mdiSitemapOutline,
  mdiUndo,
} from '@mdi/js';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type ReactFlowInstance,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { CANVAS_OPENING_FIT, ConfirmDialog, ConsoleTooltip, MdiIcon, openAtTop, useAccess, useCanvasMiniMap } from '../../../core';
import type { Bot } from '../../../../contract/bots';
import type { BotDraft } from '../../../../contract/botDrafts';
import { BotLoadError } from '../BotLoadError';
import { BOTS_QUERY_KEY, useBot, useBotDraft } from '../api/hooks';
import { useQueryClient } from '@tanstack/react-query';
import {
  addOption,
  addStep,
  connect,
  INIT_NODE_ID,
  isOptionNodeId,
  isValidConnection,
  moveStep,
  removeEdge,
  removeNodes,
  setFallback,
  stepLabel,
  toFlow,
  type BotNode,
} from '../model/graph';
import { autoLayout, OPTION_HEIGHT, OPTION_OFFSET, positionsFor, STEP_HEIGHT, STEP_WIDTH } from '../model/layout';
import type { BotGraph } from '../model/types';
import { graphWarnings } from '../model/warnings';
import { graphProblems } from '../model/problems';
import { PublishButton, PublishRefusal, PublishState, publishState, usePublish, VersionsButton } from './PublishControls';
import { VersionsDrawer } from './VersionsDrawer';
import { CanvasActionsContext, nodeTypes, type CanvasActions } from './nodes';
import { edgeTypes } from './RoutedEdge';
import { StepPanel } from './StepPanel';
import { TestChatPanel } from './TestChatPanel';
import { useBotEditor, type SaveStatus } from './useBotEditor';
import { useCompanyChannels } from '../api/hooks';

function SaveIndicator({ status }: { status: SaveStatus }) {
  const { t } = useTranslation();
  const text = status === 'saving' ? t('bots.canvas.saving') : status === 'saved' ? t('bots.canvas.saved') : t('bots.canvas.unsaved');
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" role="status" data-testid="save-status" data-status={status} sx={{ color: 'text.secondary' }}>
      {status === 'saving' ? <CircularProgress size={14} aria-hidden /> : status === 'saved' ? <MdiIcon path={mdiCheckCircleOutline} fontSize="small" /> : null}
      <Typography variant="caption">{text}</Typography>
    </Stack>
  );
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('[role="dialog"], [role="listbox"], [role="combobox"]');
}

/** Whether a new step at `at` would sit on an existing one (then it goes under the lowest step). */
function overlaps(graph: BotGraph, at: { x: number; y: number } | undefined): boolean {
  if (!at) return true;
  const positions = positionsFor(graph);
  return graph.steps.some((s) => {
    const p = positions[s.id];
    return Math.abs(p.x - at.x) < STEP_WIDTH + 20 && Math.abs(p.y - at.y) < STEP_HEIGHT + OPTION_OFFSET + OPTION_HEIGHT + 20;
  });
}

function Canvas({ bot, draft }: { bot: Bot; draft: BotDraft }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const showMiniMap = useCanvasMiniMap();
  const navigate = useNavigate();
  const { canManage } = useAccess('flows');
  const editor = useBotEditor(draft);
  const channels = useCompanyChannels();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ nodes: string[]; edges: string[] } | null>(null);
  const [testOpen, setTestOpen] = useState(false);
  const [activeStep, setActiveStep] = useState<string | null>(null);
  const [versionsOpen, setVersionsOpen] = useState(false);
  const flow = useRef<ReactFlowInstance<BotNode> | null>(null);
  const { graph } = editor;
  const readOnly = !canManage;

  const platforms = useMemo(() => {
    const byId = new Map((channels.data ?? []).map((c) => [c.id, c.platform]));
    return bot.channels.map((id) => byId.get(id)).filter((p): p is NonNullable<typeof p> => !!p);
  }, [channels.data, bot.channels]);
  const warnings = useMemo(() => graphWarnings(graph, platforms), [graph, platforms]);
  const problems = useMemo(() => graphProblems(graph), [graph]);
  const { nodes, edges } = useMemo(
    () => toFlow(graph, { warnings, problems: problems.byStep, selectedIds: selected, activeStepId: testOpen ? activeStep : null, initLabel: t('bots.canvas.start'), nextLabel: t('bots.canvas.nextEdge') }),
    [graph, warnings, problems, selected, testOpen, activeStep, t],
  );
  const publishing = usePublish({ botId: bot.id, problems, flush: editor.flush, onPublished: editor.setDraft });

  const actions: CanvasActions = useMemo(
    () => ({
      readOnly,
      addOption: (stepId) => editor.commit(addOption(graph, stepId, 'Button')),
      editStep: (stepId) => setEditing(stepId),
    }),
    [readOnly, editor, graph],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<BotNode>[]) => {
      let next = editor.graph;
      let moved = false;
      let dropped = false;
      const sel = new Set(selected);
      let selChanged = false;
      for (const change of changes) {
        if (change.type === 'position' && change.position && !isOptionNodeId(change.id) && change.id !== INIT_NODE_ID) {
          next = moveStep(next, change.id, change.position);
          moved = true;
          if (change.dragging === false) dropped = true;
        } else if (change.type === 'position' && change.dragging === false) {
          dropped = true;
        } else if (change.type === 'select') {
          if (change.selected) sel.add(change.id);
          else sel.delete(change.id);
          selChanged = true;
        }
      }
      if (selChanged) setSelected(sel);
      if (dropped) editor.commit(next);
      else if (moved) editor.setPreview(next);
    },
    [editor, selected],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange[]) => {
      const sel = new Set(selected);
      let selChanged = false;
      for (const change of changes) {
        if (change.type === 'select') {
          if (change.selected) sel.add(change.id);
          else sel.delete(change.id);
          selChanged = true;
        }
      }
      if (selChanged) setSelected(sel);
    },
    [selected],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      const next = connect(editor.graph, connection);
      if (next !== editor.graph) editor.commit(next);
    },
    [editor],
  );

  const askDelete = useCallback(() => {
    const nodeIds = [...selected].filter((id) => id !== INIT_NODE_ID && !id.startsWith('edge:'));
    const edgeIds = [...selected].filter((id) => id.startsWith('edge:option:') || id.startsWith('edge:next:'));
    if (nodeIds.length || edgeIds.length) setConfirming({ nodes: nodeIds, edges: edgeIds });
  }, [selected]);

  const onConfirmDelete = () => {
    if (!confirming) return;
    let next = removeNodes(editor.graph, confirming.nodes);
    for (const id of confirming.edges) next = removeEdge(next, id);
    editor.commit(next, { now: true });
    setSelected(new Set());
    if (editing && confirming.nodes.includes(editing)) setEditing(null);
    setConfirming(null);
  };

  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (isTyping(e.target) || readOnly) return;
    const mod = e.ctrlKey || e.metaKey;
    if ((e.key === 'Delete' || e.key === 'Backspace') && !mod) {
      e.preventDefault();
      askDelete();
    } else if (mod && e.key.toLowerCase() === 'z' && !e.shiftKey) {
      e.preventDefault();
      editor.undo();
    } else if (mod && (e.key.toLowerCase() === 'y' || (e.key.toLowerCase() === 'z' && e.shiftKey))) {
      e.preventDefault();
      editor.redo();
    }
  };

  const onAddStep = () => {
    // a new step goes in the middle of what is on screen
    const instance = flow.current;
    const wrapper = document.querySelector('[data-testid="bot-canvas"]')?.getBoundingClientRect();
    const position =
      instance && wrapper ? instance.screenToFlowPosition({ x: wrapper.left + wrapper.width / 2 - 130, y: wrapper.top + wrapper.height / 2 - 75 }) : undefined;
    const { graph: next, stepId } = addStep(editor.graph, t('bots.canvas.newStepText'), graph.steps.length && !overlaps(graph, position) ? position : undefined);
    editor.commit(next, { now: true });
    setSelected(new Set([stepId]));
    setEditing(stepId);
    requestAnimationFrame(() => flow.current?.fitView({ padding: 0.2, maxZoom: 1, duration: 0 }));
  };

  const onAutoLayout = () => {
    editor.commit(autoLayout(editor.graph));
    requestAnimationFrame(() => flow.current?.fitView({ padding: 0.2 }));
  };

  const editingStep = editing ? graph.steps.find((s) => s.id === editing) : undefined;

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 64px)', minHeight: 480 }} onKeyDown={onKeyDown}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap', rowGap: 1 }}>
        <ConsoleTooltip title={t('bots.canvas.back')}>
          <IconButton aria-label={t('bots.canvas.back')} onClick={() => navigate('/bots')}>
            <MdiIcon path={mdiArrowLeft} />
          </IconButton>
        </ConsoleTooltip>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h1" noWrap fontWeight={700}>
            {bot.name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('bots.canvas.title')}
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} />
        <TextField
          select
          size="small"
          label={t('bots.canvas.fallback')}
          value={graph.fallback_step_id ?? ''}
          onChange={(e) => editor.commit(setFallback(editor.graph, e.target.value || null), { now: true })}
          disabled={readOnly}
          data-testid="fallback-select"
          sx={{ width: 220 }}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value="">{t('bots.canvas.fallbackHuman')}</MenuItem>
          {graph.steps.map((s) => (
            <MenuItem key={s.id} value={s.id} sx={{ maxWidth: 360 }}>
              <Typography variant="inherit" noWrap>
                {stepLabel(s)}
              </Typography>
            </MenuItem>
          ))}
        </TextField>
        <Stack spacing={0.25} sx={{ minWidth: 0 }}>
          <PublishState state={publishState(editor.draft, editor.status !== 'saved')} version={editor.draft.published_version} />
          {!readOnly && (
            <Typography variant="caption" data-testid="problems-count" sx={{ color: problems.count ? 'text.primary' : 'text.secondary', fontWeight: problems.count ? 600 : 400 }}>
              {problems.count ? t('bots.draft.toFinish', { count: problems.count }) : t('bots.draft.ready')}
            </Typography>
          )}
        </Stack>
        <SaveIndicator status={editor.status} />
        <VersionsButton onClick={() => setVersionsOpen(true)} />
        {!readOnly && <PublishButton pending={publishing.pending} onClick={() => void publishing.publish()} />}
        <Divider orientation="vertical" flexItem />
        {!readOnly && (
          <>
            <ConsoleTooltip title={`${t('bots.canvas.undo')} (Ctrl+Z)`}>
              <span>
                <IconButton aria-label={t('bots.canvas.undo')} disabled={!editor.canUndo} onClick={editor.undo}>
                  <MdiIcon path={mdiUndo} />
                </IconButton>
              </span>
            </ConsoleTooltip>
            <ConsoleTooltip title={`${t('bots.canvas.redo')} (Ctrl+Y)`}>
              <span>
                <IconButton aria-label={t('bots.canvas.redo')} disabled={!editor.canRedo} onClick={editor.redo}>
                  <MdiIcon path={mdiRedo} />
                </IconButton>
              </span>
            </ConsoleTooltip>
            <Button startIcon={<MdiIcon path={mdiSitemapOutline} />} onClick={onAutoLayout} disabled={!graph.steps.length}>
              {t('bots.canvas.autoLayout')}
            </Button>
            <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiPlus} />} onClick={onAddStep}>
              {t('bots.canvas.addStep')}
            </Button>
          </>
        )}
        <Button
          variant={testOpen ? 'contained' : 'outlined'}
          disableElevation
          startIcon={<MdiIcon path={mdiChatProcessingOutline} />}
          onClick={() => setTestOpen((v) => !v)}
          aria-pressed={testOpen}
          disabled={readOnly}
        >
          {t('bots.canvas.testChat')}
        </Button>
        <ConsoleTooltip title={t('bots.canvas.details')}>
          <IconButton aria-label={t('bots.canvas.details')} onClick={() => navigate(`/bots/${bot.id}`)}>
            <MdiIcon path={mdiInformationOutline} />
          </IconButton>
        </ConsoleTooltip>
      </Stack>
      {readOnly && (
        <Alert severity="info" sx={{ mx: 2, mt: 1 }}>
          {t('bots.draft.readOnly')}
        </Alert>
      )}
      {publishing.refused && (
        <PublishRefusal
          problems={publishing.refused}
          steps={graph.steps}
          onOpenStep={(stepId) => {
            setSelected(new Set([stepId]));
            setEditing(stepId);
          }}
          onClose={publishing.dismiss}
        />
      )}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <Box sx={{ flex: 1, position: 'relative', minWidth: 0 }} data-testid="bot-canvas" aria-label={t('bots.canvas.canvasLabel')} role="region">
          {!graph.steps.length && (
            <Alert severity="info" sx={{ position: 'absolute', zIndex: 5, top: 16, left: 16, right: 16, maxWidth: 560, mx: 'auto' }}>
              {t('bots.canvas.empty')}
            </Alert>
          )}
          <CanvasActionsContext.Provider value={actions}>
            <ReactFlow<BotNode>
              nodes={nodes}
              edges={edges}
              nodeTypes={nodeTypes}
              edgeTypes={edgeTypes}
              onInit={(instance) => {
                flow.current = instance;
                void instance.fitView(CANVAS_OPENING_FIT).then(() => openAtTop(instance));
              }}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={readOnly ? undefined : onConnect}
              isValidConnection={(c) => isValidConnection(graph, { source: c.source, target: c.target })}
              onNodeDoubleClick={(_, node) => node.type === 'step' && setEditing(node.id)}
              nodesDraggable={!readOnly}
              nodesConnectable={!readOnly}
              deleteKeyCode={null}
              colorMode={theme.palette.mode}
              fitView
              fitViewOptions={CANVAS_OPENING_FIT}
              minZoom={0.2}
              defaultEdgeOptions={{ labelBgPadding: [6, 3], labelBgBorderRadius: 4, labelStyle: { fontWeight: 700, fontSize: 11 } }}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              {showMiniMap && <MiniMap pannable zoomable ariaLabel={t('bots.canvas.minimap')} />}
              <Controls />
            </ReactFlow>
          </CanvasActionsContext.Provider>
          {!editingStep && !testOpen && (
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ position: 'absolute', left: 60, right: 230, bottom: 8, pointerEvents: 'none', display: { xs: 'none', md: 'block' } }}
            >
              {t('bots.canvas.help')}
            </Typography>
          )}
        </Box>
        {editingStep && !readOnly && (
          <StepPanel
            key={editingStep.id}
            graph={graph}
            step={editingStep}
            warnings={warnings[editingStep.id] ?? []}
            problems={problems.byStep[editingStep.id] ?? []}
            onChange={(next, field) => editor.commit(next, { coalesce: `${editingStep.id}:${field}` })}
            onDelete={() => setConfirming({ nodes: [editingStep.id], edges: [] })}
            onClose={() => setEditing(null)}
          />
        )}
        {testOpen && (
          <TestChatPanel
            botId={bot.id}
            beforeStart={editor.flush}
            steps={graph.steps}
            onStep={setActiveStep}
            onClose={() => {
              setTestOpen(false);
              setActiveStep(null);
            }}
          />
        )}
      </Box>
      <VersionsDrawer
        botId={bot.id}
        open={versionsOpen}
        onClose={() => setVersionsOpen(false)}
        canRestore={!readOnly}
        beforeRestore={editor.flush}
        onRestored={(restored) => {
          editor.replace(restored);
          publishing.dismiss();
        }}
      />
      <ConfirmDialog
        open={!!confirming}
        title={t('bots.canvas.confirmDelete.title')}
        message={t('bots.canvas.confirmDelete.message', { count: (confirming?.nodes.length ?? 0) + (confirming?.edges.length ?? 0) })}
        confirmLabel={t('bots.canvas.confirmDelete.confirm')}
        cancelLabel={t('bots.canvas.confirmDelete.cancel')}
        onConfirm={onConfirmDelete}
        onClose={() => setConfirming(null)}
      />
    </Box>
  );
}

/** The route's page: loads the bot, then the canvas. */
export default function BotCanvasPage() {
  const { t } = useTranslation();
  const { botId } = useParams();
  const id = Number(botId);
  const bot = useBot(id);
  const draft = useBotDraft(id);
  const queryClient = useQueryClient();
  // what the list and the bot's page show is read again after editing here
  useEffect(() => () => void queryClient.invalidateQueries({ queryKey: BOTS_QUERY_KEY }), [queryClient]);
  // the canvas starts from the bot as the service has it now, never from a cached copy
  if (bot.isPending || (!bot.isFetchedAfterMount && bot.isFetching) || (!bot.error && (draft.isPending || (!draft.isFetchedAfterMount && draft.isFetching)))) {
    return (
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="center" role="status" sx={{ py: 6 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography variant="body2">{t('bots.loading')}</Typography>
      </Stack>
    );
  }
  const error = bot.error ?? draft.error;
  if (error || !bot.data || !draft.data) {
    return (
      <Box sx={{ p: 3 }}>
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          {t('bots.canvas.title')}
        </Typography>
        <BotLoadError error={error} />
      </Box>
    );
  }
  return (
    <ReactFlowProvider>
      <Canvas key={bot.data.id} bot={bot.data} draft={draft.data} />
    </ReactFlowProvider>
  );
}
