/**
 * The side panel that edits one step: messages (text, media by URL or upload), buttons and where each
 * leads, the next step, a typed-answer variable, actions (operations included), start step, delete.
 * Every edit is a new graph handed to the canvas, which saves it on its own.
 */
import { useRef, useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Divider, IconButton, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { mdiClose, mdiDeleteOutline, mdiFlagVariantOutline, mdiPlus, mdiUpload } from '@mdi/js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, httpApiRef, MdiIcon, useAccount, useAlert, useApi } from '../../../core';
import {
  BOT_LIMITS,
  BOT_MESSAGE_TYPES,
  DEFAULT_OPTION_TEXT,
  firstBotServiceFieldError,
  STEP_ACTION_TYPES,
  type StepAction,
  type StepActionType,
} from '../../../../contract/bots';
import { botServiceApiRef } from '../api/botService';
import { newId, stepLabel, updateStep } from '../model/graph';
import type { BotGraph, BotStep, StepMessage } from '../model/types';
import type { StepWarning } from '../model/warnings';
import type { DraftProblem } from '../model/problems';
import { useProblemText } from './problemText';
import { useWarningText } from './nodes';
import { mediaPreviewUrl, messageTypeOf, uploadMedia } from '../../../core/media/upload';

export const PANEL_WIDTH = 380;

function defaultAction(type: StepActionType): StepAction {
  switch (type) {
    case 'add_tag':
    case 'remove_tag':
      return { type, tag: '' };
    case 'assign_agent':
      return { type, email: '' };
    case 'pause_bot':
      return { type, days: 1 };
    case 'run_operation':
      return { type, operation_id: 0, variables: {} };
    case 'start_flow':
      return { type, flow_id: '' };
    default:
      return { type } as StepAction;
  }
}

function OperationDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (id: number) => void }) {
  const { t } = useTranslation();
  const service = useApi(botServiceApiRef);
  const [name, setName] = useState('');
  const [curl, setCurl] = useState('');
  const [response, setResponse] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async () => {
    setPending(true);
    setError(null);
    try {
      const op = await service.generateOperation({ name: name.trim() || undefined, curl, response: response.trim() || undefined });
      onCreated(op.id);
      onClose();
    } catch (err) {
      const body = (err as { body?: unknown }).body;
      setError(firstBotServiceFieldError(body) ?? t('bots.operations.error'));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog open={open} onClose={pending ? undefined : onClose} aria-labelledby="operation-title" fullWidth maxWidth="sm">
      <DialogTitle id="operation-title">{t('bots.operations.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 1 }}>{t('bots.operations.help')}</DialogContentText>
        {error && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {error}
          </Alert>
        )}
        <TextField fullWidth margin="dense" label={t('bots.operations.name')} value={name} onChange={(e) => setName(e.target.value)} />
        <TextField fullWidth margin="dense" multiline minRows={3} label={t('bots.operations.curl')} value={curl} onChange={(e) => setCurl(e.target.value)} />
        <TextField fullWidth margin="dense" multiline minRows={2} label={t('bots.operations.response')} value={response} onChange={(e) => setResponse(e.target.value)} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={pending}>
          {t('bots.operations.cancel')}
        </Button>
        <Button variant="contained" disableElevation onClick={submit} disabled={pending || !curl.trim()}>
          {t('bots.operations.submit')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export function StepPanel(props: {
  graph: BotGraph;
  step: BotStep;
  warnings: StepWarning[];
  /** What the step still lacks before the bot can be published (shown, never refused while editing). */
  problems: DraftProblem[];
  onChange: (graph: BotGraph, field: string) => void;
  onDelete: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { graph, step } = props;
  const http = useApi(httpApiRef);
  const service = useApi(botServiceApiRef);
  const alert = useAlert();
  const { companyId } = useAccount();
  const queryClient = useQueryClient();
  const warningText = useWarningText();
  const { describe } = useProblemText();
  const [uploading, setUploading] = useState<number | null>(null);
  const [operationFor, setOperationFor] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploadTarget = useRef<number>(0);
  const operations = useQuery({
    queryKey: ['bots', 'operations', companyId],
    queryFn: () => service.listOperations(),
    enabled: step.actions.some((a) => a.type === 'run_operation'),
    retry: false,
  });

  const change = (patch: Partial<BotStep>, field: string) => props.onChange(updateStep(graph, { ...step, ...patch }), field);
  const setMessage = (i: number, patch: Partial<StepMessage>, field: string) =>
    change({ messages: step.messages.map((m, j) => (j === i ? { ...m, ...patch } : m)) }, `message${i}.${field}`);
  const setAction = (i: number, action: StepAction) => change({ actions: step.actions.map((a, j) => (j === i ? action : a)) }, `action${i}`);
  const others = graph.steps.filter((s) => s.id !== step.id);
  const isStart = (graph.step ?? graph.steps[0]?.id) === step.id;

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    const i = uploadTarget.current;
    setUploading(i);
    try {
      const url = await uploadMedia(http, file);
      setMessage(i, { media_url: url, type: messageTypeOf(file.type) }, 'media');
    } catch {
      alert.error(t('bots.panel.uploadError'));
    } finally {
      setUploading(null);
      if (fileInput.current) fileInput.current.value = '';
    }
  };

  const addAction = () => {
    change({ actions: [...step.actions, defaultAction('hand_over')] }, `action-add-${step.actions.length}`);
    alert.success(t('bots.panel.actionCreated'));
  };

  return (
    <Box
      component="aside"
      aria-labelledby="step-panel-title"
      data-testid="step-panel"
      sx={{ width: PANEL_WIDTH, flexShrink: 0, borderLeft: 1, borderColor: 'divider', overflowY: 'auto', bgcolor: 'background.paper', p: 2 }}
    >
      <Stack direction="row" alignItems="center" spacing={1}>
        <Typography id="step-panel-title" variant="h6" component="h2" sx={{ flex: 1 }} noWrap>
          {t('bots.panel.title')}: {stepLabel(step)}
        </Typography>
        <ConsoleTooltip title={t('bots.panel.close')}>
          <IconButton aria-label={t('bots.panel.close')} onClick={props.onClose}>
            <MdiIcon path={mdiClose} />
          </IconButton>
        </ConsoleTooltip>
      </Stack>
      {props.problems.length > 0 && (
        <Alert severity="error" icon={false} sx={{ my: 1 }} data-testid="panel-problems">
          <strong>{t('bots.problems.title')}</strong>
          {props.problems.map((p, i) => (
            <div key={i}>{describe(p)}</div>
          ))}
        </Alert>
      )}
      {props.warnings.length > 0 && (
        <Alert severity="warning" sx={{ my: 1 }}>
          {props.warnings.map((w, i) => (
            <div key={i}>{warningText(w)}</div>
          ))}
        </Alert>
      )}
      <Stack direction="row" spacing={1} sx={{ my: 1 }}>
        <Button
          size="small"
          startIcon={<MdiIcon path={mdiFlagVariantOutline} />}
          disabled={isStart}
          onClick={() => props.onChange({ ...graph, step: step.id }, 'start')}
        >
          {isStart ? t('bots.panel.isStart') : t('bots.panel.makeStart')}
        </Button>
        <Box sx={{ flex: 1 }} />
        <Button size="small" color="error" startIcon={<MdiIcon path={mdiDeleteOutline} />} onClick={props.onDelete}>
          {t('bots.canvas.deleteStep')}
        </Button>
      </Stack>

      <Divider sx={{ my: 1 }} />
      <Typography variant="subtitle2" component="h3">
        {t('bots.panel.messages')}
      </Typography>
      <input ref={fileInput} type="file" hidden accept="image/*,video/*,audio/*,application/pdf" onChange={(e) => void onFile(e.target.files?.[0])} data-testid="media-file" />
      {step.messages.map((message, i) => (
        <Box key={i} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1, my: 1 }}>
          <Stack direction="row" spacing={1} alignItems="center">
            <Typography variant="caption" sx={{ flex: 1 }}>
              {t('bots.panel.message', { n: i + 1 })}
            </Typography>
            <TextField
              select
              size="small"
              label={t('bots.panel.type')}
              value={message.type}
              onChange={(e) => setMessage(i, { type: e.target.value as StepMessage['type'] }, 'type')}
              sx={{ minWidth: 120 }}
            >
              {BOT_MESSAGE_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`bots.panel.types.${type}`)}
                </MenuItem>
              ))}
            </TextField>
            <ConsoleTooltip title={t('bots.panel.removeMessage', { n: i + 1 })}>
              <span>
                <IconButton
                  size="small"
                  aria-label={t('bots.panel.removeMessage', { n: i + 1 })}
                  disabled={step.messages.length <= 1}
                  onClick={() => change({ messages: step.messages.filter((_, j) => j !== i) }, `message-remove`)}
                >
                  <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                </IconButton>
              </span>
            </ConsoleTooltip>
          </Stack>
          <TextField
            fullWidth
            multiline
            minRows={2}
            margin="dense"
            label={t('bots.panel.text')}
            value={message.text}
            onChange={(e) => setMessage(i, { text: e.target.value }, 'text')}
            error={message.type === 'text' && !message.text.trim()}
            helperText={`${message.text.length} / 1024`}
            slotProps={{ htmlInput: { maxLength: BOT_LIMITS.messageText, 'data-testid': `message-text-${i}` } }}
          />
          {message.type !== 'text' && (
            <Stack direction="row" spacing={1} alignItems="center">
              <TextField
                fullWidth
                size="small"
                margin="dense"
                label={t('bots.panel.mediaUrl')}
                value={message.media_url ?? ''}
                onChange={(e) => setMessage(i, { media_url: e.target.value || null }, 'media')}
              />
              <ConsoleTooltip title={t('bots.panel.upload')}>
                <span>
                  <IconButton
                    aria-label={t('bots.panel.upload')}
                    disabled={uploading !== null}
                    onClick={() => {
                      uploadTarget.current = i;
                      fileInput.current?.click();
                    }}
                  >
                    <MdiIcon path={mdiUpload} />
                  </IconButton>
                </span>
              </ConsoleTooltip>
            </Stack>
          )}
          {uploading === i && (
            <Typography variant="caption" role="status">
              {t('bots.panel.uploading')}
            </Typography>
          )}
          {message.media_url && message.type === 'image' && (
            <Box component="img" src={mediaPreviewUrl(message.media_url)} alt="" sx={{ maxWidth: '100%', maxHeight: 120, borderRadius: 1, mt: 0.5 }} />
          )}
        </Box>
      ))}
      <Button
        size="small"
        startIcon={<MdiIcon path={mdiPlus} />}
        disabled={step.messages.length >= BOT_LIMITS.messagesPerStep}
        onClick={() => change({ messages: [...step.messages, { text: t('bots.canvas.newStepText'), media_url: null, type: 'text' }] }, 'message-add')}
      >
        {t('bots.panel.addMessage')}
      </Button>

      <Divider sx={{ my: 1 }} />
      <Typography variant="subtitle2" component="h3">
        {t('bots.panel.options')}
      </Typography>
      {step.options.map((option, i) => (
        <Stack key={option.id} direction="row" spacing={1} alignItems="flex-start" sx={{ my: 1 }}>
          <TextField
            size="small"
            label={t('bots.panel.optionText', { n: i + 1 })}
            value={option.text}
            onChange={(e) => change({ options: step.options.map((o) => (o.id === option.id ? { ...o, text: e.target.value } : o)) }, `option${option.id}.text`)}
            error={!option.text.trim() || option.text.length > 20}
            helperText={`${option.text.length} / 20`}
            slotProps={{ htmlInput: { maxLength: BOT_LIMITS.optionText } }}
            sx={{ flex: 1 }}
          />
          <TextField
            select
            size="small"
            label={t('bots.panel.optionTarget')}
            value={option.next_step ?? ''}
            onChange={(e) => change({ options: step.options.map((o) => (o.id === option.id ? { ...o, next_step: e.target.value || null } : o)) }, `option${option.id}.next`)}
            sx={{ flex: 1 }}
          >
            <MenuItem value="">{t('bots.panel.nowhere')}</MenuItem>
            {graph.steps.map((s) => (
              <MenuItem key={s.id} value={s.id}>
                {stepLabel(s)}
              </MenuItem>
            ))}
          </TextField>
          <ConsoleTooltip title={t('bots.panel.removeOption', { n: i + 1 })}>
            <IconButton aria-label={t('bots.panel.removeOption', { n: i + 1 })} onClick={() => change({ options: step.options.filter((o) => o.id !== option.id) }, 'option-remove')}>
              <MdiIcon path={mdiDeleteOutline} fontSize="small" />
            </IconButton>
          </ConsoleTooltip>
        </Stack>
      ))}
      <Button
        size="small"
        startIcon={<MdiIcon path={mdiPlus} />}
        disabled={step.options.length >= BOT_LIMITS.optionsPerStep}
        onClick={() => change({ options: [...step.options, { id: newId(), text: DEFAULT_OPTION_TEXT, next_step: null, step: step.id }] }, 'option-add')}
      >
        {t('bots.canvas.addOption')}
      </Button>

      <Divider sx={{ my: 1 }} />
      <TextField
        select
        fullWidth
        size="small"
        margin="dense"
        label={t('bots.panel.nextStep')}
        value={step.next_step_id ?? ''}
        onChange={(e) => change({ next_step_id: e.target.value || null }, 'next')}
      >
        <MenuItem value="">{t('bots.panel.none')}</MenuItem>
        {others.map((s) => (
          <MenuItem key={s.id} value={s.id}>
            {stepLabel(s)}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        fullWidth
        size="small"
        margin="dense"
        label={t('bots.panel.input')}
        helperText={t('bots.panel.inputHelp')}
        value={step.input?.variable ?? ''}
        onChange={(e) => change({ input: e.target.value ? { variable: e.target.value } : null }, 'input')}
      />

      <Divider sx={{ my: 1 }} />
      <Typography variant="subtitle2" component="h3">
        {t('bots.panel.actions')}
      </Typography>
      {step.actions.map((action, i) => (
        <Box key={i} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1, my: 1 }}>
          <Stack direction="row" spacing={1} alignItems="center">
            <TextField
              select
              size="small"
              fullWidth
              label={t('bots.panel.actions')}
              value={action.type}
              onChange={(e) => setAction(i, defaultAction(e.target.value as StepActionType))}
            >
              {STEP_ACTION_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {t(`bots.panel.actionTypes.${type}`)}
                </MenuItem>
              ))}
            </TextField>
            <ConsoleTooltip title={t('bots.panel.removeAction', { n: i + 1 })}>
              <IconButton aria-label={t('bots.panel.removeAction', { n: i + 1 })} onClick={() => change({ actions: step.actions.filter((_, j) => j !== i) }, 'action-remove')}>
                <MdiIcon path={mdiDeleteOutline} fontSize="small" />
              </IconButton>
            </ConsoleTooltip>
          </Stack>
          {(action.type === 'add_tag' || action.type === 'remove_tag') && (
            <TextField fullWidth size="small" margin="dense" label={t('bots.panel.tag')} value={action.tag} onChange={(e) => setAction(i, { ...action, tag: e.target.value })} />
          )}
          {action.type === 'assign_agent' && (
            <TextField fullWidth size="small" margin="dense" type="email" label={t('bots.panel.email')} value={action.email} onChange={(e) => setAction(i, { ...action, email: e.target.value })} />
          )}
          {action.type === 'pause_bot' && (
            <TextField
              fullWidth
              size="small"
              margin="dense"
              type="number"
              label={t('bots.panel.days')}
              value={action.days}
              onChange={(e) => setAction(i, { ...action, days: Math.max(1, Math.min(BOT_LIMITS.pauseDaysMax, Number(e.target.value) || 1)) })}
            />
          )}
          {action.type === 'ai_answer' && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {t('bots.panel.aiAnswerHelp')}
            </Typography>
          )}
          {action.type === 'start_flow' && (
            <TextField fullWidth size="small" margin="dense" label={t('bots.panel.flow')} value={String(action.flow_id)} onChange={(e) => setAction(i, { ...action, flow_id: e.target.value })} />
          )}
          {action.type === 'run_operation' && (
            <Stack direction="row" spacing={1} alignItems="center">
              <TextField
                select
                fullWidth
                size="small"
                margin="dense"
                label={t('bots.panel.operation')}
                value={action.operation_id || ''}
                onChange={(e) => setAction(i, { ...action, operation_id: Number(e.target.value) })}
              >
                {(operations.data?.results ?? []).map((op) => (
                  <MenuItem key={op.id} value={op.id}>
                    {op.name} ({op.method})
                  </MenuItem>
                ))}
              </TextField>
              <ConsoleTooltip title={t('bots.panel.newOperation')}>
                <IconButton aria-label={t('bots.panel.newOperation')} onClick={() => setOperationFor(i)}>
                  <MdiIcon path={mdiPlus} />
                </IconButton>
              </ConsoleTooltip>
            </Stack>
          )}
        </Box>
      ))}
      <Button size="small" startIcon={<MdiIcon path={mdiPlus} />} disabled={step.actions.length >= BOT_LIMITS.actionsPerStep} onClick={addAction}>
        {t('bots.panel.addAction')}
      </Button>
      <OperationDialog
        open={operationFor !== null}
        onClose={() => setOperationFor(null)}
        onCreated={(id) => {
          const i = operationFor ?? 0;
          const action = step.actions[i];
          if (action?.type === 'run_operation') setAction(i, { ...action, operation_id: id });
          void queryClient.invalidateQueries({ queryKey: ['bots', 'operations'] });
        }}
      />
    </Box>
  );
}
