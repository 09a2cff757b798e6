/**
 * "Try it": the real flow runtime (POST /api/flows/{id}/test-chat/) on the flow as it is in the
 * editor, in a private conversation that nothing stores.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { mdiRestart, mdiSend } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon, useApi } from '../../../core';
import type { TestChatResponse, TestChatState } from '../../../../contract/botRuntime';
import type { FlowSaveBody } from '../../../../contract/flows';
import { flowServiceApiRef } from '../api/flowService';

interface Line {
  from: 'bot' | 'me' | 'system';
  text: string;
  media?: { url: string; type: string } | null;
  buttons?: { id: string; title: string }[] | null;
}

export function TestChat(props: { flowId: number; draft: () => FlowSaveBody | null; onStep?: (stepId: string | null) => void }) {
  const { t } = useTranslation();
  const service = useApi(flowServiceApiRef);
  const [lines, setLines] = useState<Line[]>([]);
  const [state, setState] = useState<TestChatState | null>(null);
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [started, setStarted] = useState(false);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines]);

  const apply = (answer: TestChatResponse) => {
    const add: Line[] = answer.messages.map((m) => ({ from: 'bot', text: m.text ?? '', media: m.media_url ? { url: m.media_url, type: m.type } : null, buttons: m.buttons }));
    // What would happen in a room instead (another flow's keyword starts that flow), as the bots' test chat shows it.
    for (const a of answer.actions) add.push({ from: 'system', text: a.description });
    if (answer.handed_over) add.push({ from: 'system', text: answer.messages.length > 0 ? t('flows.test.handedOver') : t('flows.test.stillHandedOver') });
    else if (answer.step_id === null && answer.messages.length > 0) add.push({ from: 'system', text: t('flows.test.ended') });
    // Silence after the end is what a customer would get from this flow: say where the message goes instead of showing nothing.
    else if (answer.step_id === null && answer.actions.length === 0) add.push({ from: 'system', text: t('flows.test.afterEnd') });
    setLines((l) => [...l, ...add]);
    setState(answer.state);
    props.onStep?.(answer.step_id);
  };

  const send = async (body: { text?: string | null; button_id?: string | null; reset?: boolean }, shown?: string) => {
    const flow = props.draft();
    if (!flow) {
      setError(t('flows.test.fixFirst'));
      return;
    }
    setPending(true);
    setError(null);
    if (body.reset) setLines([]);
    if (shown) setLines((l) => [...l, { from: 'me', text: shown }]);
    try {
      apply(await service.testChat(props.flowId, { ...body, state: body.reset ? null : state, flow }));
      setStarted(true);
    } catch (err) {
      setError(t('flows.test.error', { error: err instanceof Error ? err.message : String(err) }));
    } finally {
      setPending(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value) return;
    setText('');
    void send({ text: value }, value);
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="flow-test-chat" component="section" aria-labelledby="flow-test-title">
      <Stack direction="row" alignItems="center" justifyContent="space-between" sx={{ mb: 1 }}>
        <Typography id="flow-test-title" variant="subtitle1" component="h2" fontWeight={600}>
          {t('flows.test.title')}
        </Typography>
        <Button size="small" startIcon={<MdiIcon path={mdiRestart} />} disabled={pending} onClick={() => void send({ reset: true })}>
          {started ? t('flows.test.restart') : t('flows.test.start')}
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('flows.test.help')}
      </Typography>
      <Box ref={log} role="log" aria-live="polite" aria-label={t('flows.test.title')} data-testid="test-chat-log" sx={{ maxHeight: 360, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: 1, py: 1 }}>
        {lines.map((line, i) =>
          line.from === 'system' ? (
            <Typography key={i} variant="caption" color="text.secondary" sx={{ textAlign: 'center' }} data-testid="test-chat-system">
              {line.text}
            </Typography>
          ) : (
            <Box
              key={i}
              data-testid={line.from === 'bot' ? 'test-chat-bot' : 'test-chat-me'}
              sx={{
                alignSelf: line.from === 'me' ? 'flex-end' : 'flex-start',
                maxWidth: '85%',
                px: 1.5,
                py: 1,
                borderRadius: 2,
                bgcolor: line.from === 'me' ? 'primary.main' : 'action.hover',
                color: line.from === 'me' ? 'primary.contrastText' : 'text.primary',
              }}
            >
              <Typography variant="caption" component="p" sx={{ fontWeight: 600, opacity: 0.8 }}>
                {line.from === 'me' ? t('flows.test.you') : t('flows.test.bot')}
              </Typography>
              {line.media && line.media.type === 'image' ? (
                <Box component="img" src={line.media.url} alt="" sx={{ maxWidth: '100%', maxHeight: 160, borderRadius: 1, display: 'block' }} />
              ) : line.media ? (
                <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>{line.media.url}</Typography>
              ) : null}
              {line.text && (
                <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {line.text}
                </Typography>
              )}
              {line.buttons && line.buttons.length > 0 && (
                <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap sx={{ mt: 1 }}>
                  {line.buttons
                    .filter((b) => !b.id.startsWith('url:'))
                    .map((b) => (
                      <Button key={b.id} size="small" variant="outlined" disabled={pending} onClick={() => void send({ button_id: b.id }, b.title)}>
                        {b.title}
                      </Button>
                    ))}
                </Stack>
              )}
            </Box>
          ),
        )}
      </Box>
      {error && (
        <Alert severity="error" sx={{ my: 1 }}>
          {error}
        </Alert>
      )}
      <Box component="form" onSubmit={submit} sx={{ display: 'flex', gap: 1, mt: 1 }}>
        <TextField size="small" fullWidth label={t('flows.test.input')} value={text} onChange={(e) => setText(e.target.value)} disabled={pending || !started} />
        <Button type="submit" variant="contained" disableElevation disabled={pending || !started || !text.trim()} startIcon={<MdiIcon path={mdiSend} />}>
          {t('flows.test.send')}
        </Button>
      </Box>
    </Paper>
  );
}
