/**
 * The test chat beside the canvas: the real runtime (POST /api/bots/{id}/test-chat/) in a private
 * conversation that nothing stores. The step it waits on is highlighted on the canvas.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Box, Button, Chip, IconButton, Stack, TextField, Typography } from '@mui/material';
import { mdiClose, mdiRestart, mdiSend } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon, useApi } from '../../../core';
import type { TestChatResponse, TestChatState } from '../../../../contract/botRuntime';
import { botServiceApiRef } from '../api/botService';
import { botErrorText } from '../api/errors';
import { stepLabel } from '../model/graph';
import type { BotStep } from '../model/types';

interface Line {
  from: 'bot' | 'me' | 'system';
  text: string;
  media?: { url: string; type: string } | null;
  buttons?: { id: string; title: string }[] | null;
}

export function TestChatPanel(props: { botId: number; steps: BotStep[]; beforeStart: () => Promise<void>; onStep: (stepId: string | null) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const service = useApi(botServiceApiRef);
  const [lines, setLines] = useState<Line[]>([]);
  const [state, setState] = useState<TestChatState | null>(null);
  const [stepId, setStepId] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [handedOver, setHandedOver] = useState(false);
  const end = useRef<HTMLDivElement>(null);
  const { onStep } = props;

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: 'end' });
  }, [lines]);

  const apply = (answer: TestChatResponse) => {
    const botLines: Line[] = answer.messages.map((m) => ({
      from: 'bot',
      text: m.text ?? '',
      media: m.media_url ? { url: m.media_url, type: m.type } : null,
      buttons: m.buttons,
    }));
    for (const a of answer.actions) botLines.push({ from: 'system', text: a.error ? `${a.description} (${a.error})` : a.description });
    if (answer.handed_over) botLines.push({ from: 'system', text: t('bots.testChat.handedOver') });
    setLines((l) => [...l, ...botLines]);
    setState(answer.state);
    setStepId(answer.step_id);
    setHandedOver(answer.handed_over);
    onStep(answer.step_id);
  };

  const send = async (body: { text?: string | null; button_id?: string | null; reset?: boolean }, shown?: string) => {
    setPending(true);
    setError(null);
    try {
      if (body.reset) {
        await props.beforeStart(); // the runtime reads the saved bot: save what is on screen first
        setLines([]);
      }
      if (shown) setLines((l) => [...l, { from: 'me', text: shown }]);
      const answer = await service.testChat(props.botId, { state: body.reset ? null : state, reset: !!body.reset, text: body.text ?? null, button_id: body.button_id ?? null });
      apply(answer);
    } catch (err) {
      const status = (err as { status?: number }).status;
      setError(status === 404 ? t('bots.testChat.unavailable') : botErrorText(err));
    } finally {
      setPending(false);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = text.trim();
    if (!value || pending) return;
    setText('');
    void send({ text: value }, value);
  };

  const current = props.steps.find((s) => s.id === stepId);
  const lastButtons = [...lines].reverse().find((l) => l.from === 'bot')?.buttons ?? null;

  return (
    <Box
      component="aside"
      aria-labelledby="test-chat-title"
      data-testid="test-chat"
      sx={{ width: 340, flexShrink: 0, borderLeft: 1, borderColor: 'divider', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}
    >
      <Stack direction="row" alignItems="center" spacing={1} sx={{ p: 1.5, borderBottom: 1, borderColor: 'divider' }}>
        <Typography id="test-chat-title" variant="subtitle1" component="h2" fontWeight={700} sx={{ flex: 1 }}>
          {t('bots.testChat.title')}
        </Typography>
        <ConsoleTooltip title={t('bots.testChat.restart')}>
          <span>
            <IconButton aria-label={t('bots.testChat.restart')} disabled={pending} onClick={() => void send({ reset: true })}>
              <MdiIcon path={mdiRestart} />
            </IconButton>
          </span>
        </ConsoleTooltip>
        <ConsoleTooltip title={t('bots.testChat.close')}>
          <IconButton aria-label={t('bots.testChat.close')} onClick={props.onClose}>
            <MdiIcon path={mdiClose} />
          </IconButton>
        </ConsoleTooltip>
      </Stack>
      {current && (
        <Box sx={{ px: 1.5, pt: 1 }}>
          <Chip size="small" color="secondary" data-testid="test-chat-step" label={t('bots.testChat.currentStep', { label: stepLabel(current) })} />
        </Box>
      )}
      <Box sx={{ flex: 1, overflowY: 'auto', p: 1.5 }} role="log" aria-live="polite" data-testid="test-chat-log">
        {!lines.length && !pending && (
          <Button variant="contained" disableElevation fullWidth onClick={() => void send({ reset: true })}>
            {t('bots.testChat.start')}
          </Button>
        )}
        {lines.map((line, i) => (
          <Box key={i} sx={{ display: 'flex', justifyContent: line.from === 'me' ? 'flex-end' : line.from === 'system' ? 'center' : 'flex-start', my: 0.5 }}>
            <Box
              data-testid={`test-chat-${line.from}`}
              sx={{
                maxWidth: '85%',
                px: 1.25,
                py: 0.75,
                borderRadius: 2,
                whiteSpace: 'pre-wrap',
                wordBreak: 'break-word',
                fontSize: line.from === 'system' ? 12 : 14,
                fontStyle: line.from === 'system' ? 'italic' : 'normal',
                bgcolor: line.from === 'me' ? 'primary.main' : line.from === 'bot' ? 'background.paper' : 'transparent',
                color: line.from === 'me' ? 'primary.contrastText' : 'text.primary',
                border: line.from === 'bot' ? 1 : 0,
                borderColor: 'divider',
              }}
            >
              {line.media && line.media.type === 'image' && <Box component="img" src={line.media.url} alt="" sx={{ maxWidth: '100%', borderRadius: 1, display: 'block' }} />}
              {line.media && line.media.type !== 'image' && (
                <Box component="a" href={line.media.url} target="_blank" rel="noreferrer" sx={{ display: 'block' }}>
                  {line.media.url.split('/').pop()}
                </Box>
              )}
              {line.text}
            </Box>
          </Box>
        ))}
        {lastButtons && !handedOver && (
          <Stack spacing={0.5} sx={{ mt: 1 }} data-testid="test-chat-buttons">
            {lastButtons.map((b) => (
              <Button key={b.id} variant="outlined" size="small" disabled={pending} onClick={() => void send({ button_id: b.id }, b.title)}>
                {b.title}
              </Button>
            ))}
          </Stack>
        )}
        <div ref={end} />
      </Box>
      {error && (
        <Alert severity="error" sx={{ mx: 1.5 }}>
          {error}
        </Alert>
      )}
      <Box component="form" onSubmit={onSubmit} sx={{ p: 1.5, display: 'flex', gap: 1, borderTop: 1, borderColor: 'divider' }}>
        <TextField
          size="small"
          fullWidth
          placeholder={t('bots.testChat.placeholder')}
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={!lines.length}
          slotProps={{ htmlInput: { 'aria-label': t('bots.testChat.placeholder') } }}
        />
        <IconButton type="submit" aria-label={t('bots.testChat.send')} disabled={pending || !text.trim() || !lines.length} color="primary">
          <MdiIcon path={mdiSend} />
        </IconButton>
      </Box>
    </Box>
  );
}
