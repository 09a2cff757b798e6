/**
 * /flows/branch/{flowName} (spec §2, feature `branching_flows`): the same flow as the editor's, as a
 * branching graph on React Flow — steps as nodes, options as labelled edges to their next step — and
 * editable: add and delete steps (the Delete key too), edit a step's message and type, add, rename and
 * delete options, connect an option or a step's next step to a step by dragging (or with the panel's
 * selects). "Save" sends the whole flow (POST /api/flows/{id}/save/) and says
 * 'Success : flow has been updated!', or the spec §8 error composition.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, CircularProgress, IconButton, Stack, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { mdiArrowLeft, mdiContentSave, mdiPencilOutline, mdiPlus, mdiSitemapOutline } from '@mdi/js';
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, type Connection, type EdgeChange, type NodeChange, type ReactFlowInstance } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { CANVAS_OPENING_FIT, ConfirmDialog, ConsoleTooltip, errorBody, errorText, i18nApiRef, MdiIcon, openAtTop, useAccess, useAccount, useAlert, useApi, useCanvasMiniMap } from '../../../core';
import { flowErrorMessage, FlowSaveBody, type Flow, type FlowStep } from '../../../../contract/flows';
import { flowServiceApiRef, NoBotAccessError } from '../api/flowService';
import { addOption, addStep, connect, isStepNodeId, isValidConnection, positionsFor, removeEdge, removeSteps, START_NODE_ID, stepIdOf, stepNodeId, toFlow, type BranchNode, type Positions } from './model';
import { BranchActionsContext, branchNodeTypes, type BranchActions } from './nodes';
import { StepPanel } from './StepPanel';
import { registerBranchTranslations } from './translations';

/** The fields a save sends: the flow as loaded, with the edited steps. */
export function saveBodyOf(flow: Flow, steps: FlowStep[]): FlowSaveBody {
  return {
    flow_name: flow.flow_name,
    description: flow.description,
    company_name: flow.company_name,
    company_domain: flow.company_domain,
    extra_context: flow.extra_context,
    intro_msg: flow.intro_msg,
    intro_media_url: flow.intro_media_url,
    find_out_more_msg: flow.find_out_more_msg,
    find_out_more_media_url: flow.find_out_more_media_url,
    call_to_action: flow.call_to_action,
    keywords: flow.keywords,
    steps,
  };
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName) || !!el.closest('[role="dialog"], [role="listbox"], [role="combobox"], aside');
}

function Editor({ flow: loaded }: { flow: Flow }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const showMiniMap = useCanvasMiniMap();
  const navigate = useNavigate();
  const alert = useAlert();
  const service = useApi(flowServiceApiRef);
  const { canManage } = useAccess('flows');
  const readOnly = !canManage;
  const [saved, setSaved] = useState<Flow>(loaded);
  const [steps, setSteps] = useState<FlowStep[]>(loaded.steps);
  const [kept, setKept] = useState<Positions>({});
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<{ steps: string[]; edges: string[] } | null>(null);
  const [leaving, setLeaving] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const instance = useRef<ReactFlowInstance<BranchNode> | null>(null);
  const canvasBox = useRef<HTMLDivElement | null>(null);
  const dirty = useMemo(() => JSON.stringify(steps) !== JSON.stringify(saved.steps), [steps, saved.steps]);

  // closing the tab with unsaved changes asks first
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  const positions = useMemo(() => positionsFor(steps, kept), [steps, kept]);
  const { nodes, edges } = useMemo(
    () =>
      toFlow(steps, positions, {
        selected,
        intro: saved.intro_msg,
        labels: { next: t('flowBranch.edge.next'), then: t('flowBranch.edge.then'), start: t('flowBranch.edge.start') },
      }),
    [steps, positions, selected, saved.intro_msg, t],
  );

  const fit = () => requestAnimationFrame(() => instance.current?.fitView({ ...CANVAS_OPENING_FIT, duration: 0 }));

  const actions: BranchActions = useMemo(
    () => ({
      readOnly,
      editStep: (stepId) => setEditing(stepId),
      addOption: (stepId) => {
        setSteps((current) => addOption(current, stepId));
        setEditing(stepId);
      },
    }),
    [readOnly],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<BranchNode>[]) => {
      const moved: Positions = {};
      const select: [string, boolean][] = [];
      for (const change of changes) {
        if (change.type === 'position' && change.position) {
          moved[change.id === START_NODE_ID ? START_NODE_ID : stepIdOf(change.id)] = { x: Math.round(change.position.x), y: Math.round(change.position.y) };
        } else if (change.type === 'select') select.push([change.id, change.selected]);
      }
      // once something is moved, the layout shown is kept (new steps are placed around it)
      if (Object.keys(moved).length) setKept((k) => ({ ...(Object.keys(k).length ? k : positions), ...moved }));
      if (select.length) {
        setSelected((current) => {
          const next = new Set(current);
          for (const [id, on] of select) {
            if (on) next.add(id);
            else next.delete(id);
          }
          return next;
        });
      }
    },
    [positions],
  );

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    const select = changes.filter((c): c is Extract<EdgeChange, { type: 'select' }> => c.type === 'select');
    if (!select.length) return;
    setSelected((current) => {
      const next = new Set(current);
      for (const c of select) {
        if (c.selected) next.add(c.id);
        else next.delete(c.id);
      }
      return next;
    });
  }, []);

  const onConnect = useCallback((connection: Connection) => {
    setSteps((current) => connect(current, connection) ?? current);
  }, []);

  const askDelete = () => {
    const stepIds = [...selected].filter(isStepNodeId).map(stepIdOf);
    const edgeIds = [...selected].filter((id) => id.startsWith('edge:option:') || id.startsWith('edge:next:'));
    if (stepIds.length) setConfirming({ steps: stepIds, edges: edgeIds });
    else if (edgeIds.length) {
      setSteps((current) => edgeIds.reduce((acc, id) => removeEdge(acc, id), current));
      setSelected(new Set());
    }
  };

  const onConfirmDelete = () => {
    if (!confirming) return;
    const { steps: stepIds, edges: edgeIds } = confirming;
    setSteps((current) => removeSteps(edgeIds.reduce((acc, id) => removeEdge(acc, id), current), stepIds));
    if (editing && stepIds.includes(editing)) setEditing(null);
    setSelected(new Set());
    setConfirming(null);
  };

  // Delete / Backspace removes the selection. Listened on the document: a selected link re-renders and
  // can leave the focus on the page's body, outside the canvas.
  const onDeleteKey = useRef<(e: KeyboardEvent) => void>(() => undefined);
  onDeleteKey.current = (e: KeyboardEvent) => {
    if (readOnly || e.defaultPrevented || isTyping(e.target)) return;
    if ((e.key !== 'Delete' && e.key !== 'Backspace') || e.ctrlKey || e.metaKey) return;
    const target = e.target as Node | null;
    if (target !== document.body && !canvasBox.current?.contains(target)) return;
    e.preventDefault();
    askDelete();
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => onDeleteKey.current(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const onAddStep = () => {
    const { steps: next, stepId } = addStep(steps, t('flowBranch.newStepMessage'));
    setSteps(next);
    setSelected(new Set([stepNodeId(stepId)]));
    setEditing(stepId);
    fit();
  };

  const onAutoLayout = () => {
    setKept({});
    fit();
  };

  const onSave = async () => {
    const parsed = FlowSaveBody.safeParse(saveBodyOf(saved, steps));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      alert.error(t('flowBranch.invalid', { problem: `${issue.path.join('.')}: ${issue.message}` }));
      return;
    }
    setSaving(true);
    try {
      const result = await service.saveFlow(saved.id, saveBodyOf(saved, steps));
      setSaved(result);
      setSteps(result.steps);
      alert.success(t('flowBranch.success'));
    } catch (err) {
      alert.error(flowErrorMessage('update', errorBody(err), err instanceof Error ? err.message : undefined));
    } finally {
      setSaving(false);
    }
  };

  const leave = (to: string) => (dirty && !readOnly ? setLeaving(to) : navigate(to));
  const editingStep = editing ? steps.find((s) => s.step_id === editing) : undefined;
  const status = saving ? 'saving' : dirty ? 'unsaved' : 'saved';

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: 'calc(100vh - 64px)', minHeight: 480 }}>
      <Stack direction="row" alignItems="center" spacing={1} sx={{ px: 2, py: 1, borderBottom: 1, borderColor: 'divider', flexWrap: 'wrap', rowGap: 1 }}>
        <ConsoleTooltip title={t('flowBranch.back')}>
          <IconButton aria-label={t('flowBranch.back')} onClick={() => leave('/flows')}>
            <MdiIcon path={mdiArrowLeft} />
          </IconButton>
        </ConsoleTooltip>
        <Box sx={{ minWidth: 0 }}>
          <Typography variant="h6" component="h1" noWrap fontWeight={700}>
            {saved.flow_name}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {t('flowBranch.title')}
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} />
        <Stack direction="row" spacing={0.5} alignItems="center" role="status" data-testid="branch-save-status" data-status={status} sx={{ color: 'text.secondary' }}>
          {saving && <CircularProgress size={14} aria-hidden />}
          <Typography variant="caption">{t(`flowBranch.${status}`)}</Typography>
        </Stack>
        <Button startIcon={<MdiIcon path={mdiPencilOutline} />} onClick={() => leave(`/flows/edit/${encodeURIComponent(saved.flow_name)}`)}>
          {t('flowBranch.editWhole')}
        </Button>
        {!readOnly && (
          <>
            <Button startIcon={<MdiIcon path={mdiSitemapOutline} />} onClick={onAutoLayout} disabled={!steps.length}>
              {t('flowBranch.autoLayout')}
            </Button>
            <Button variant="outlined" startIcon={<MdiIcon path={mdiPlus} />} onClick={onAddStep}>
              {t('flowBranch.addStep')}
            </Button>
            <Button
              variant="contained"
              disableElevation
              startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={mdiContentSave} />}
              onClick={onSave}
              disabled={saving || !dirty}
            >
              {t('flowBranch.save')}
            </Button>
          </>
        )}
      </Stack>
      {readOnly && (
        <Alert severity="info" sx={{ borderRadius: 0 }}>
          {t('flowBranch.readOnly')}
        </Alert>
      )}
      <Box sx={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <Box ref={canvasBox} sx={{ flex: 1, position: 'relative', minWidth: 0 }} data-testid="branch-canvas" aria-label={t('flowBranch.canvasLabel')} role="region">
          {!steps.length && (
            <Alert severity="info" sx={{ position: 'absolute', zIndex: 5, top: 16, left: 16, right: 16, maxWidth: 560, mx: 'auto' }}>
              {t('flowBranch.empty')}
            </Alert>
          )}
          <BranchActionsContext.Provider value={actions}>
            <ReactFlow<BranchNode>
              nodes={nodes}
              edges={edges}
              nodeTypes={branchNodeTypes}
              onInit={(flow) => {
                instance.current = flow;
                void flow.fitView(CANVAS_OPENING_FIT).then(() => openAtTop(flow));
              }}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={readOnly ? undefined : onConnect}
              isValidConnection={(c) => isValidConnection(steps, { source: c.source, target: c.target, sourceHandle: c.sourceHandle })}
              onNodeDoubleClick={(_, node) => !readOnly && node.type === 'step' && setEditing(stepIdOf(node.id))}
              nodesDraggable
              nodesConnectable={!readOnly}
              deleteKeyCode={null}
              colorMode={theme.palette.mode}
              fitView
              // Opened as the bot canvas opens: no smaller than 80 %, a tall flow at its top (core/canvas/openAtTop).
              fitViewOptions={CANVAS_OPENING_FIT}
              minZoom={0.2}
              defaultEdgeOptions={{ labelBgPadding: [6, 3], labelBgBorderRadius: 4, labelStyle: { fontWeight: 700, fontSize: 11 } }}
              proOptions={{ hideAttribution: true }}
            >
              <Background gap={20} />
              {showMiniMap && <MiniMap pannable zoomable ariaLabel={t('flowBranch.minimap')} />}
              <Controls />
            </ReactFlow>
          </BranchActionsContext.Provider>
          {!editingStep && !readOnly && (
            <Typography
              variant="caption"
              color="text.secondary"
              sx={{ position: 'absolute', left: 60, right: 230, bottom: 8, pointerEvents: 'none', display: { xs: 'none', md: 'block' } }}
            >
              {t('flowBranch.help')}
            </Typography>
          )}
        </Box>
        {editingStep && !readOnly && (
          <StepPanel
            key={editingStep.step_id}
            steps={steps}
            step={editingStep}
            onChange={setSteps}
            onDelete={() => setConfirming({ steps: [editingStep.step_id], edges: [] })}
            onClose={() => setEditing(null)}
          />
        )}
      </Box>
      <ConfirmDialog
        open={!!confirming}
        title={t('flowBranch.confirmDelete.title')}
        message={t('flowBranch.confirmDelete.message', { count: (confirming?.steps.length ?? 0) + (confirming?.edges.length ?? 0) })}
        confirmLabel={t('flowBranch.confirmDelete.confirm')}
        cancelLabel={t('flowBranch.confirmDelete.cancel')}
        onConfirm={onConfirmDelete}
        onClose={() => setConfirming(null)}
      />
      <ConfirmDialog
        open={!!leaving}
        title={t('flowBranch.leave.title')}
        message={t('flowBranch.leave.message')}
        confirmLabel={t('flowBranch.leave.confirm')}
        cancelLabel={t('flowBranch.leave.cancel')}
        onConfirm={() => {
          const to = leaving;
          setLeaving(null);
          if (to) navigate(to);
        }}
        onClose={() => setLeaving(null)}
      />
    </Box>
  );
}

/** The flow named in the path (case-insensitive), read fresh from the bot service; null: no such flow. */
function useFlowByName(name: string) {
  const service = useApi(flowServiceApiRef);
  const { companyId } = useAccount();
  return useQuery({
    queryKey: ['flows', 'branch', companyId, name],
    queryFn: async () => {
      const wanted = name.trim().toLowerCase();
      const found = (await service.listFlows()).find((f) => f.flow_name.trim().toLowerCase() === wanted);
      return found ? service.getFlow(found.id) : null;
    },
    retry: false,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
  });
}

function Page() {
  const { t } = useTranslation();
  const { flowName = '' } = useParams();
  const { companyId } = useAccount();
  const flow = useFlowByName(flowName);
  if (flow.isPending || (!flow.isFetchedAfterMount && flow.isFetching)) {
    return (
      <Stack direction="row" spacing={1} alignItems="center" justifyContent="center" role="status" sx={{ py: 6 }}>
        <CircularProgress size={20} aria-hidden />
        <Typography variant="body2">{t('flowBranch.loading')}</Typography>
      </Stack>
    );
  }
  if (flow.error || !flow.data) {
    return (
      <Box sx={{ p: 3 }}>
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          {t('flowBranch.title')}
        </Typography>
        {flow.error instanceof NoBotAccessError ? (
          <Alert severity="info">{t('flowBranch.noAccess')}</Alert>
        ) : flow.error ? (
          <Alert severity="error">{t('flowBranch.loadError', { error: errorText(flow.error) })}</Alert>
        ) : (
          <Alert severity="warning">{t('flowBranch.notFound', { name: flowName })}</Alert>
        )}
      </Box>
    );
  }
  return (
    <ReactFlowProvider>
      <Editor key={`${companyId}:${flow.data.id}`} flow={flow.data} />
    </ReactFlowProvider>
  );
}

/** The route's page: registers the view's strings, then loads the flow. */
export default function FlowBranchPage() {
  const i18n = useApi(i18nApiRef);
  useState(() => registerBranchTranslations(i18n));
  return <Page />;
}
