import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  Paper,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { mdiUpload } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { MessageTemplate } from '../../../../contract/channels';
import { MdiIcon } from '../../../core';
import { useChatService } from '../hooks';
import { approvedTemplates, templateBody, templateKey } from '../model/templates';
import type { TemplateMedia } from '../service/chatService';
import { fill, formProblems, initialForm, isHttpsLink, templateMedia, templateNeeds, type MediaKind, type SendForm, type TemplateNeeds } from './templateSend';

interface Props {
  open: boolean;
  /** The room's channel: GET /api/channels/{pageId}/templates/. */
  pageId: number;
  onClose: () => void;
  onSend: (template: MessageTemplate, parameters: string[], media?: TemplateMedia) => void;
}

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; templates: MessageTemplate[] };

const ACCEPT: Record<MediaKind, string> = { image: 'image/jpeg,image/png', video: 'video/mp4,video/3gpp', document: 'application/pdf' };

function MediaPreview({ kind, url }: { kind: MediaKind; url: string | null }) {
  const { t } = useTranslation();
  if (url && kind === 'image') return <Box component="img" src={url} alt="" sx={{ display: 'block', width: '100%', maxHeight: 160, objectFit: 'cover', borderRadius: 1 }} />;
  return (
    <Box sx={{ height: 72, borderRadius: 1, bgcolor: 'action.selected', display: 'grid', placeItems: 'center' }}>
      <Typography variant="caption">{t('templateSend.mediaHeader', { kind: t(`templateSend.kind.${kind}`) })}</Typography>
    </Box>
  );
}

/** The message as the customer will see it: header media or text, body with the values, footer, buttons, cards. */
function Preview({ needs, form, headerPreview }: { needs: TemplateNeeds; form: SendForm; headerPreview: string | null }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" data-testid="template-preview" aria-label={t('templateSend.previewLabel')} sx={{ p: 1.5, bgcolor: 'action.hover', overflowWrap: 'anywhere' }}>
      <Box sx={{ maxWidth: 340, bgcolor: 'background.paper', borderRadius: 2, p: 1, boxShadow: 1 }}>
        {needs.header && <MediaPreview kind={needs.header.kind} url={headerPreview ?? (isHttpsLink(form.headerUrl) ? form.headerUrl : null)} />}
        {needs.headerText && (
          <Typography variant="subtitle2" fontWeight={700} sx={{ mt: 0.5 }}>
            {fill(needs.headerText, [form.headerValue])}
          </Typography>
        )}
        <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', mt: needs.header ? 1 : 0 }}>
          {fill(needs.body, form.parameters)}
        </Typography>
        {needs.footer && (
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {needs.footer}
          </Typography>
        )}
        {needs.buttons.map((b, i) => (
          <Typography key={i} variant="body2" align="center" color="primary" sx={{ borderTop: 1, borderColor: 'divider', mt: 0.5, pt: 0.5 }}>
            {b}
          </Typography>
        ))}
      </Box>
      {needs.cards && (
        <Stack
          direction="row"
          spacing={1}
          tabIndex={0}
          role="region"
          aria-label={t('templateSend.cards')}
          sx={{ mt: 1, overflowX: 'auto', pb: 0.5, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
          data-testid="template-preview-cards"
        >
          {needs.cards.map((card, i) => (
            <Box key={i} sx={{ width: 180, flexShrink: 0, bgcolor: 'background.paper', borderRadius: 2, p: 1, boxShadow: 1 }}>
              <MediaPreview kind={card.kind} url={isHttpsLink(form.cards[i]?.link) ? form.cards[i].link : null} />
              <Typography variant="body2" sx={{ mt: 0.5, whiteSpace: 'pre-wrap' }}>
                {fill(card.body, form.cards[i]?.parameters ?? [])}
              </Typography>
              {card.buttons.map((b, j) => (
                <Typography key={j} variant="caption" align="center" color="primary" component="p" sx={{ borderTop: 1, borderColor: 'divider', mt: 0.5, pt: 0.5 }}>
                  {b}
                </Typography>
              ))}
            </Box>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

/**
 * Choose an approved WhatsApp template (text, media header or carousel), fill its {{n}} parameters
 * (all required), give the header's file (the template's sample, an upload or a link) and each
 * carousel card's media, preview, send.
 */
export function TemplateDialog({ open, pageId, onClose, onSend }: Props) {
  const { t } = useTranslation();
  const service = useChatService();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [form, setForm] = useState<SendForm>(() => initialForm(templateNeeds({ components: [] })));
  const [touched, setTouched] = useState<Set<string> | 'all'>(() => new Set());
  const [upload, setUpload] = useState<{ status: 'idle' | 'uploading' | 'error' } | { status: 'done'; name: string; preview: string | null }>({ status: 'idle' });
  const seq = useRef(0);

  const choose = useCallback((template: MessageTemplate | undefined) => {
    setSelectedKey(template ? templateKey(template) : null);
    setForm(initialForm(templateNeeds(template ?? { components: [] })));
    setTouched(new Set());
    setUpload({ status: 'idle' });
  }, []);

  const fetchTemplates = useCallback(() => {
    const mine = ++seq.current;
    setLoad({ status: 'loading' });
    service
      .loadTemplates(pageId)
      .then((all) => {
        if (mine !== seq.current) return;
        // Authentication codes are sent by the business's own systems, never typed in the inbox.
        const templates = approvedTemplates(all).filter((x) => String(x.category).toUpperCase() !== 'AUTHENTICATION');
        setLoad({ status: 'ready', templates });
        choose(templates.length === 1 ? templates[0] : undefined);
      })
      .catch(() => mine === seq.current && setLoad({ status: 'error' }));
  }, [service, pageId, choose]);

  useEffect(() => {
    if (!open) return;
    fetchTemplates();
    return () => {
      seq.current += 1;
    };
  }, [open, fetchTemplates]);

  // The local preview of an uploaded file is released when replaced or closed.
  const preview = upload.status === 'done' ? upload.preview : null;
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const templates = load.status === 'ready' ? load.templates : [];
  const selected = templates.find((x) => templateKey(x) === selectedKey);
  const needs = useMemo(() => (selected ? templateNeeds(selected) : null), [selected]);
  const problems = needs ? formProblems(needs, form) : {};
  const complete = !!needs && Object.keys(problems).length === 0 && upload.status !== 'uploading';
  const shown = (key: string) => (touched === 'all' || touched.has(key)) && !!problems[key];
  const blur = (key: string) => () => setTouched((s) => (s === 'all' ? s : new Set(s).add(key)));

  const uploadFile = async (file: File) => {
    setUpload({ status: 'uploading' });
    try {
      const url = await service.upload(file);
      const local = file.type.startsWith('image/') && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null;
      setForm((f) => ({ ...f, headerUrl: url, headerMediaType: file.type || null, headerUploaded: true }));
      setUpload({ status: 'done', name: file.name, preview: local });
    } catch {
      setUpload({ status: 'error' });
    }
  };

  const submit = () => {
    if (!selected || !needs) return;
    if (!complete) {
      setTouched('all');
      return;
    }
    onSend(
      selected,
      form.parameters.map((p) => p.trim()),
      templateMedia(needs, form),
    );
  };

  const setCard = (i: number, patch: (card: SendForm['cards'][number]) => SendForm['cards'][number]) =>
    setForm((f) => ({ ...f, cards: f.cards.map((c, j) => (j === i ? patch(c) : c)) }));

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="chats-template-dialog-title" data-testid="template-dialog">
      <DialogTitle id="chats-template-dialog-title">{t('chats.templates.title')}</DialogTitle>
      <DialogContent dividers>
        {load.status === 'loading' && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <CircularProgress size={28} aria-label={t('chats.templates.loading')} />
          </Box>
        )}
        {load.status === 'error' && (
          <Alert
            severity="error"
            action={
              <Button color="inherit" size="small" onClick={fetchTemplates}>
                {t('chats.templates.retry')}
              </Button>
            }
          >
            {t('chats.templates.error')}
          </Alert>
        )}
        {load.status === 'ready' && !templates.length && (
          <Typography color="text.secondary" data-testid="templates-empty" sx={{ py: 2, textAlign: 'center' }}>
            {t('chats.templates.empty')}
          </Typography>
        )}
        {templates.length > 0 && (
          <List dense disablePadding aria-label={t('chats.templates.list')} sx={{ maxHeight: 220, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
            {templates.map((tpl) => {
              const key = templateKey(tpl);
              const isSelected = key === selectedKey;
              const kind = templateNeeds(tpl);
              return (
                <ListItemButton key={key} selected={isSelected} aria-pressed={isSelected} onClick={() => !isSelected && choose(tpl)} data-testid="template-option" sx={{ display: 'block', borderBottom: 1, borderColor: 'divider' }}>
                  <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ flexWrap: 'wrap' }}>
                    <Typography variant="subtitle2" sx={{ fontFamily: 'monospace' }}>
                      {tpl.name}
                    </Typography>
                    <Chip size="small" label={tpl.language} title={t('chats.templates.language', { language: tpl.language })} aria-label={t('chats.templates.language', { language: tpl.language })} />
                    {tpl.category && <Chip size="small" variant="outlined" label={t(`chats.templates.category.${tpl.category.toUpperCase()}`, { defaultValue: tpl.category })} />}
                    {kind.header && <Chip size="small" variant="outlined" label={t('templateSend.mediaHeader', { kind: t(`templateSend.kind.${kind.header.kind}`) })} />}
                    {kind.cards && <Chip size="small" variant="outlined" label={`${t('templateSend.carousel')} · ${kind.cards.length}`} />}
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                    {templateBody(tpl)}
                  </Typography>
                </ListItemButton>
              );
            })}
          </List>
        )}
        {selected && needs && (
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mt: 2 }} data-testid="template-form">
            <Box sx={{ flex: 1, minWidth: 0 }}>
              {needs.header && (
                <Box sx={{ mb: 2 }}>
                  <Typography variant="subtitle2" gutterBottom>
                    {t('templateSend.header', { kind: t(`templateSend.kind.${needs.header.kind}`) })}
                  </Typography>
                  <Stack spacing={1}>
                    <TextField
                      size="small"
                      fullWidth
                      label={t('templateSend.headerLink', { kind: t(`templateSend.kind.${needs.header.kind}`) })}
                      value={form.headerUploaded ? '' : form.headerUrl}
                      disabled={form.headerUploaded}
                      error={shown('header')}
                      helperText={shown('header') ? t('templateSend.linkInvalid') : t('templateSend.headerHelp')}
                      onChange={(e) => setForm((f) => ({ ...f, headerUrl: e.target.value, headerMediaType: null, headerUploaded: false }))}
                      onBlur={blur('header')}
                      slotProps={{ htmlInput: { maxLength: 2048 } }}
                    />
                    <Stack direction="row" spacing={1} alignItems="center">
                      <Button component="label" size="small" variant="outlined" startIcon={upload.status === 'uploading' ? <CircularProgress size={14} aria-hidden /> : <MdiIcon path={mdiUpload} />} disabled={upload.status === 'uploading'}>
                        {upload.status === 'uploading' ? t('templateSend.uploading') : t('templateSend.upload')}
                        <input
                          hidden
                          type="file"
                          accept={ACCEPT[needs.header.kind]}
                          data-testid="template-header-file"
                          onChange={(e) => {
                            const file = e.target.files?.[0];
                            e.target.value = '';
                            if (file) void uploadFile(file);
                          }}
                        />
                      </Button>
                      {upload.status === 'done' && (
                        <Chip
                          size="small"
                          label={t('templateSend.uploaded', { name: upload.name })}
                          onDelete={() => {
                            setUpload({ status: 'idle' });
                            setForm((f) => ({ ...f, headerUrl: needs.header?.example ?? '', headerMediaType: null, headerUploaded: false }));
                          }}
                        />
                      )}
                    </Stack>
                    {upload.status === 'error' && <Alert severity="error">{t('templateSend.uploadError')}</Alert>}
                  </Stack>
                </Box>
              )}
              {needs.headerVariable && (
                <TextField
                  sx={{ mb: 2 }}
                  autoFocus
                  label={t('templateSend.headerParameter')}
                  value={form.headerValue}
                  required
                  size="small"
                  fullWidth
                  error={shown('headerValue')}
                  helperText={shown('headerValue') ? t('chats.templates.required') : undefined}
                  onChange={(e) => setForm((f) => ({ ...f, headerValue: e.target.value }))}
                  onBlur={blur('headerValue')}
                  slotProps={{ htmlInput: { maxLength: 60 } }}
                />
              )}
              <Typography variant="subtitle2" gutterBottom>
                {t('chats.templates.parameters')}
              </Typography>
              {form.parameters.length === 0 ? (
                <Typography variant="body2" color="text.secondary">
                  {t('chats.templates.noParameters')}
                </Typography>
              ) : (
                <Stack spacing={1.5}>
                  {form.parameters.map((value, i) => (
                    <TextField
                      key={`${selectedKey}-${i}`}
                      label={t('chats.templates.parameter', { n: i + 1 })}
                      value={value}
                      required
                      size="small"
                      fullWidth
                      autoFocus={i === 0 && !needs.headerVariable}
                      error={shown(`parameter.${i}`)}
                      helperText={shown(`parameter.${i}`) ? t('chats.templates.required') : undefined}
                      onChange={(e) => setForm((f) => ({ ...f, parameters: f.parameters.map((x, j) => (j === i ? e.target.value : x)) }))}
                      onBlur={blur(`parameter.${i}`)}
                      slotProps={{ htmlInput: { maxLength: 1024 } }}
                    />
                  ))}
                </Stack>
              )}
              {needs.buttonInputs.length > 0 && (
                <Stack spacing={1.5} sx={{ mt: 2 }}>
                  {needs.buttonInputs.map((b, i) => (
                    <TextField
                      key={`${selectedKey}-button-${b.index}`}
                      label={b.kind === 'url' ? t('templateSend.buttonUrl', { text: b.label }) : t('templateSend.buttonCode')}
                      value={form.buttonValues[i] ?? ''}
                      required
                      size="small"
                      fullWidth
                      error={shown(`button.${i}`)}
                      helperText={shown(`button.${i}`) ? t('chats.templates.required') : (b.url ?? undefined)}
                      onChange={(e) => setForm((f) => ({ ...f, buttonValues: f.buttonValues.map((x, j) => (j === i ? e.target.value : x)) }))}
                      onBlur={blur(`button.${i}`)}
                      slotProps={{ htmlInput: { maxLength: b.kind === 'url' ? 2000 : 15 } }}
                    />
                  ))}
                </Stack>
              )}
              {needs.cards && (
                <Box sx={{ mt: 2 }}>
                  <Typography variant="subtitle2">{t('templateSend.cards')}</Typography>
                  <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
                    {t('templateSend.cardsHelp', { count: needs.cards.length })}
                  </Typography>
                  <Stack spacing={1.5}>
                    {needs.cards.map((card, i) => (
                      <Stack key={i} spacing={1} data-testid="template-card-form">
                        <TextField
                          size="small"
                          fullWidth
                          required
                          label={t('templateSend.cardLink', { n: i + 1, kind: t(`templateSend.kind.${card.kind}`) })}
                          value={form.cards[i]?.link ?? ''}
                          error={shown(`card.${i}.link`)}
                          helperText={shown(`card.${i}.link`) ? t('templateSend.linkInvalid') : undefined}
                          onChange={(e) => setCard(i, (c) => ({ ...c, link: e.target.value }))}
                          onBlur={blur(`card.${i}.link`)}
                          slotProps={{ htmlInput: { maxLength: 2048 } }}
                        />
                        {(form.cards[i]?.parameters ?? []).map((value, j) => (
                          <TextField
                            key={j}
                            size="small"
                            fullWidth
                            required
                            label={t('templateSend.cardParameter', { n: i + 1, p: j + 1 })}
                            value={value}
                            error={shown(`card.${i}.parameter.${j}`)}
                            helperText={shown(`card.${i}.parameter.${j}`) ? t('chats.templates.required') : undefined}
                            onChange={(e) => setCard(i, (c) => ({ ...c, parameters: c.parameters.map((x, k) => (k === j ? e.target.value : x)) }))}
                            onBlur={blur(`card.${i}.parameter.${j}`)}
                            slotProps={{ htmlInput: { maxLength: 1024 } }}
                          />
                        ))}
                      </Stack>
                    ))}
                  </Stack>
                </Box>
              )}
            </Box>
            <Box sx={{ flex: 1, minWidth: 0 }}>
              <Typography variant="subtitle2" gutterBottom>
                {t('chats.templates.preview')}
              </Typography>
              <Preview needs={needs} form={form} headerPreview={preview} />
            </Box>
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('chats.templates.cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={!complete}>
          {t('chats.templates.send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
