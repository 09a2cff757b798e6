/**
 * /sandbox/:key — the customer simulator of a company's sandbox channel (public, no login).
 * Choose a customer (name and id), then chat: the view polls every second for new messages
 * (after the last id), shows what agents and bots send, and sends text, image links and button replies.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, Link, Stack, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import type { Message } from '../../../../contract/chats';
import { HttpError, httpApiRef, safeUrl, useApi } from '../../../core';
import { AuthLayout } from '../shared/AuthLayout';
import {
  CUSTOMER_ID_PATTERN,
  POLL_INTERVAL_MS,
  loadCustomer,
  mergeMessages,
  offeredButtons,
  saveCustomer,
  simulatorApi,
  type Customer,
  type OutgoingSimulatorMessage,
  type SimulatorInfo,
} from './simulatorApi';

type Mode = 'text' | 'image' | 'button';

function randomCustomerId(): string {
  return `cust-${Math.random().toString(36).slice(2, 8)}`;
}

export function SandboxSimulatorPage() {
  const { key = '' } = useParams();
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const api = useMemo(() => simulatorApi(http, key), [http, key]);
  const [info, setInfo] = useState<SimulatorInfo | null>(null);
  const [invalid, setInvalid] = useState(false);
  const [customer, setCustomer] = useState<Customer | null>(() => loadCustomer(key));

  useEffect(() => {
    let active = true;
    api.info().then(
      (result) => active && setInfo(result),
      () => active && setInvalid(true),
    );
    return () => {
      active = false;
    };
  }, [api]);

  const choose = (next: Customer | null) => {
    saveCustomer(key, next);
    setCustomer(next);
  };

  if (invalid) {
    return (
      <AuthLayout title={t('pages.sandbox.title')}>
        <Alert severity="error">{t('pages.sandbox.invalidLink')}</Alert>
      </AuthLayout>
    );
  }
  if (!info) {
    return (
      <AuthLayout title={t('pages.sandbox.title')}>
        <Stack direction="row" spacing={1.5} alignItems="center">
          <CircularProgress size={20} aria-hidden />
          <Typography>{t('pages.sandbox.loading')}</Typography>
        </Stack>
      </AuthLayout>
    );
  }

  const subtitle = t('pages.sandbox.subtitle', { company: info.company_name, channel: info.channel_name });
  if (!customer) {
    return (
      <AuthLayout title={t('pages.sandbox.title')} subtitle={subtitle}>
        <IdentityForm onChoose={choose} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={t('pages.sandbox.title')} subtitle={subtitle} maxWidth={640}>
      <ChatView key={customer.id} api={api} customer={customer} onChangeCustomer={() => choose(null)} />
    </AuthLayout>
  );
}

function IdentityForm({ onChoose }: { onChoose: (customer: Customer) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [id, setId] = useState(randomCustomerId);
  const idValid = CUSTOMER_ID_PATTERN.test(id.trim());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim() || !idValid) return;
    onChoose({ name: name.trim(), id: id.trim() });
  };

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Typography variant="subtitle1" fontWeight={600} sx={{ mb: 2 }}>
        {t('pages.sandbox.identityTitle')}
      </Typography>
      <Stack spacing={2}>
        <TextField label={t('pages.sandbox.customerName')} value={name} onChange={(e) => setName(e.target.value)} required fullWidth autoFocus inputProps={{ maxLength: 200 }} />
        <TextField
          label={t('pages.sandbox.customerId')}
          value={id}
          onChange={(e) => setId(e.target.value)}
          required
          fullWidth
          error={!idValid}
          helperText={t('pages.sandbox.customerIdHelp')}
          inputProps={{ maxLength: 100 }}
        />
        <Button type="submit" variant="contained" size="large" disableElevation disabled={!name.trim() || !idValid} sx={{ fontWeight: 600 }}>
          {t('pages.sandbox.start')}
        </Button>
      </Stack>
    </Box>
  );
}

interface ChatViewProps {
  api: ReturnType<typeof simulatorApi>;
  customer: Customer;
  onChangeCustomer: () => void;
}

function ChatView({ api, customer, onChangeCustomer }: ChatViewProps) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<Message[]>([]);
  const [blocked, setBlocked] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const lastId = useRef(0);
  const listRef = useRef<HTMLDivElement>(null);

  const addMessages = useCallback((incoming: Message[]) => {
    if (incoming.length === 0) return;
    lastId.current = Math.max(lastId.current, ...incoming.map((m) => m.id));
    setMessages((current) => mergeMessages(current, incoming));
  }, []);

  // Poll every second for what is new since the last message seen.
  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      try {
        const result = await api.messages(customer.id, lastId.current);
        if (!active) return;
        addMessages(result.messages);
        setBlocked(result.blocked);
      } catch {
        // Keep polling: the server may be restarting.
      }
      if (active) timer = setTimeout(poll, POLL_INTERVAL_MS);
    };
    void poll();
    return () => {
      active = false;
      if (timer) clearTimeout(timer);
    };
  }, [api, customer.id, addMessages]);

  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messages.length]);

  const send = async (message: OutgoingSimulatorMessage): Promise<boolean> => {
    setError(null);
    setSending(true);
    try {
      const { message: stored } = await api.send(customer, message);
      addMessages([stored]);
      return true;
    } catch (err) {
      if (err instanceof HttpError && err.status === 403) setBlocked(true);
      else if (err instanceof HttpError && err.status === 429) setError(t('pages.sandbox.rateLimited'));
      else setError(t('pages.sandbox.sendFailed', { error: err instanceof Error ? err.message : String(err) }));
      return false;
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" justifyContent="space-between">
        <Box>
          <Typography fontWeight={600}>{customer.name}</Typography>
          <Typography variant="body2" color="text.secondary">
            {customer.id}
          </Typography>
        </Box>
        <Button onClick={onChangeCustomer}>
          {t('pages.sandbox.changeCustomer')}
        </Button>
      </Stack>

      <Card variant="outlined" sx={{ borderRadius: 2 }}>
        <CardContent ref={listRef} role="log" aria-live="polite" sx={{ height: 380, overflowY: 'auto', bgcolor: 'background.default' }}>
          {messages.length === 0 ? (
            <Typography color="text.secondary" sx={{ textAlign: 'center', mt: 8 }}>
              {t('pages.sandbox.empty')}
            </Typography>
          ) : (
            <Stack spacing={1}>
              {messages.map((message) => (
                <Bubble key={message.id} message={message} onButton={(button) => void send({ button_reply: button })} disabled={sending || blocked} />
              ))}
            </Stack>
          )}
        </CardContent>
      </Card>

      {blocked && <Alert severity="warning">{t('pages.sandbox.blocked')}</Alert>}
      {error && <Alert severity="error">{error}</Alert>}
      {!blocked && <Composer onSend={send} sending={sending} />}
    </Stack>
  );
}

function Bubble({ message, onButton, disabled }: { message: Message; onButton: (button: { id: string; title: string }) => void; disabled: boolean }) {
  const { t } = useTranslation();
  const mine = message.origin === 'user';
  const who = mine ? t('pages.sandbox.you') : message.origin === 'bot' ? t('pages.sandbox.bot') : message.sender_name || t('pages.sandbox.agent');
  const buttons = mine ? [] : offeredButtons(message);
  const mediaUrl = safeUrl(message.media_url);
  return (
    <Box data-testid="sandbox-message" data-origin={message.origin} sx={{ display: 'flex', justifyContent: mine ? 'flex-end' : 'flex-start' }}>
      <Box
        sx={{
          maxWidth: '78%',
          px: 1.5,
          py: 1,
          borderRadius: 2,
          bgcolor: mine ? 'primary.main' : 'background.paper',
          color: mine ? 'primary.contrastText' : 'text.primary',
          border: mine ? 0 : 1,
          borderColor: 'divider',
        }}
      >
        <Typography variant="caption" sx={{ opacity: 0.8, display: 'block' }}>
          {who}
          {!mine && message.status ? ` · ${t(`pages.sandbox.status.${message.status}`)}` : ''}
        </Typography>
        {/* Only http(s) and our own paths become a source or a link (safeUrl); anything else stays text. */}
        {mediaUrl && (message.type === 'image' || message.media_type?.startsWith('image')) ? (
          <Box component="img" src={mediaUrl} alt={message.text ?? ''} sx={{ display: 'block', maxWidth: '100%', maxHeight: 220, borderRadius: 1, my: 0.5 }} />
        ) : mediaUrl ? (
          <Link href={mediaUrl} target="_blank" rel="noopener noreferrer" color="inherit">
            {message.media_url}
          </Link>
        ) : message.media_url ? (
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            {message.media_url}
          </Typography>
        ) : null}
        {message.type === 'button_reply' ? <Chip size="small" label={message.text} sx={{ bgcolor: 'rgba(255,255,255,0.2)', color: 'inherit' }} /> : message.text && <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{message.text}</Typography>}
        {buttons.length > 0 && (
          <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', gap: 1 }}>
            {buttons.map((button) => (
              <Button key={button.id} size="small" variant="outlined" disabled={disabled} onClick={() => onButton(button)} sx={{ m: 0 }}>
                {button.title}
              </Button>
            ))}
          </Stack>
        )}
      </Box>
    </Box>
  );
}

function Composer({ onSend, sending }: { onSend: (message: OutgoingSimulatorMessage) => Promise<boolean>; sending: boolean }) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<Mode>('text');
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [buttonId, setButtonId] = useState('');

  const ready = mode === 'image' ? /^https?:\/\/\S+$/i.test(url.trim()) : text.trim() !== '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!ready || sending) return;
    const message: OutgoingSimulatorMessage =
      mode === 'text'
        ? { text: text.trim() }
        : mode === 'image'
          ? { media_url: url.trim(), media_type: 'image', text: text.trim() || null }
          : { button_reply: { id: buttonId.trim() || text.trim().toLowerCase().replace(/\s+/g, '_').slice(0, 200), title: text.trim() } };
    if (await onSend(message)) {
      setText('');
      setUrl('');
      setButtonId('');
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <ToggleButtonGroup exclusive size="small" value={mode} onChange={(_e, next: Mode | null) => next && setMode(next)} sx={{ mb: 1.5 }}>
        <ToggleButton value="text">
          {t('pages.sandbox.modeText')}
        </ToggleButton>
        <ToggleButton value="image">
          {t('pages.sandbox.modeImage')}
        </ToggleButton>
        <ToggleButton value="button">
          {t('pages.sandbox.modeButton')}
        </ToggleButton>
      </ToggleButtonGroup>
      <Stack spacing={1.5}>
        {mode === 'image' && <TextField size="small" label={t('pages.sandbox.imageUrl')} value={url} onChange={(e) => setUrl(e.target.value)} fullWidth inputProps={{ maxLength: 2048 }} />}
        {mode === 'button' && <TextField size="small" label={t('pages.sandbox.buttonId')} value={buttonId} onChange={(e) => setButtonId(e.target.value)} fullWidth inputProps={{ maxLength: 200 }} />}
        <Stack direction="row" spacing={1}>
          <TextField
            size="small"
            label={mode === 'text' ? undefined : mode === 'image' ? t('pages.sandbox.caption') : t('pages.sandbox.buttonTitle')}
            placeholder={mode === 'text' ? t('pages.sandbox.messagePlaceholder') : undefined}
            inputProps={{ 'aria-label': mode === 'text' ? t('pages.sandbox.messagePlaceholder') : undefined, maxLength: mode === 'button' ? 200 : 4096 }}
            value={text}
            onChange={(e) => setText(e.target.value)}
            fullWidth
          />
          <Button type="submit" variant="contained" disableElevation disabled={!ready || sending} sx={{ fontWeight: 600, minWidth: 96 }}>
            {t('pages.sandbox.send')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}
