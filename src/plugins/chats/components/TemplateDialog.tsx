import { useCallback, useEffect, useRef, useState } from 'react';
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
import { useTranslation } from 'react-i18next';
import { renderTemplateBody, templateBodyParameterCount, type MessageTemplate } from '../../../../contract/channels';
import { useChatService } from '../hooks';
import { approvedTemplates, parametersComplete, templateBody, templateKey } from '../model/templates';

interface Props {
  open: boolean;
  /** The room's channel: GET /api/channels/{pageId}/templates/. */
  pageId: number;
  onClose: () => void;
  onSend: (template: MessageTemplate, parameters: string[]) => void;
}

type Load = { status: 'loading' } | { status: 'error' } | { status: 'ready'; templates: MessageTemplate[] };

/** Choose an approved WhatsApp template, fill its {{n}} parameters (all required), preview, send. */
export function TemplateDialog({ open, pageId, onClose, onSend }: Props) {
  const { t } = useTranslation();
  const service = useChatService();
  const [load, setLoad] = useState<Load>({ status: 'loading' });
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [params, setParams] = useState<string[]>([]);
  const [touched, setTouched] = useState<boolean[]>([]);
  const seq = useRef(0);

  const choose = useCallback((template: MessageTemplate | undefined) => {
    const n = template ? templateBodyParameterCount(template) : 0;
    setSelectedKey(template ? templateKey(template) : null);
    setParams(Array.from({ length: n }, () => ''));
    setTouched(Array.from({ length: n }, () => false));
  }, []);

  const fetchTemplates = useCallback(() => {
    const mine = ++seq.current;
    setLoad({ status: 'loading' });
    service
      .loadTemplates(pageId)
      .then((all) => {
        if (mine !== seq.current) return;
        const templates = approvedTemplates(all);
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

  const templates = load.status === 'ready' ? load.templates : [];
  const selected = templates.find((x) => templateKey(x) === selectedKey);
  const complete = !!selected && parametersComplete(selected, params);

  const submit = () => {
    if (!selected) return;
    if (!complete) {
      setTouched(params.map(() => true));
      return;
    }
    onSend(selected, params.map((p) => p.trim()));
  };

  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="chats-template-dialog-title" data-testid="template-dialog">
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
          <List dense disablePadding aria-label={t('chats.templates.list')} sx={{ maxHeight: 260, overflow: 'auto', border: 1, borderColor: 'divider', borderRadius: 1 }}>
            {templates.map((tpl) => {
              const key = templateKey(tpl);
              const isSelected = key === selectedKey;
              return (
                <ListItemButton key={key} selected={isSelected} aria-pressed={isSelected} onClick={() => !isSelected && choose(tpl)} data-testid="template-option" sx={{ display: 'block', borderBottom: 1, borderColor: 'divider' }}>
                  <Stack direction="row" spacing={1} alignItems="center" useFlexGap sx={{ flexWrap: 'wrap' }}>
                    <Typography variant="subtitle2" sx={{ fontFamily: 'monospace' }}>
                      {tpl.name}
                    </Typography>
                    <Chip size="small" label={tpl.language} title={t('chats.templates.language', { language: tpl.language })} aria-label={t('chats.templates.language', { language: tpl.language })} />
                    {tpl.category && <Chip size="small" variant="outlined" label={t(`chats.templates.category.${tpl.category.toUpperCase()}`, { defaultValue: tpl.category })} />}
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, whiteSpace: 'pre-wrap', display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
                    {templateBody(tpl)}
                  </Typography>
                </ListItemButton>
              );
            })}
          </List>
        )}
        {selected && (
          <Box sx={{ mt: 2 }} data-testid="template-form">
            <Typography variant="subtitle2" gutterBottom>
              {t('chats.templates.parameters')}
            </Typography>
            {params.length === 0 ? (
              <Typography variant="body2" color="text.secondary">
                {t('chats.templates.noParameters')}
              </Typography>
            ) : (
              <Stack spacing={1.5}>
                {params.map((value, i) => {
                  const error = touched[i] && !value.trim();
                  return (
                    <TextField
                      key={`${selectedKey}-${i}`}
                      label={t('chats.templates.parameter', { n: i + 1 })}
                      value={value}
                      required
                      size="small"
                      fullWidth
                      autoFocus={i === 0}
                      error={error}
                      helperText={error ? t('chats.templates.required') : undefined}
                      onChange={(e) => setParams((p) => p.map((x, j) => (j === i ? e.target.value : x)))}
                      onBlur={() => setTouched((tt) => tt.map((x, j) => (j === i ? true : x)))}
                      slotProps={{ htmlInput: { maxLength: 1024 } }}
                    />
                  );
                })}
              </Stack>
            )}
            <Typography variant="subtitle2" sx={{ mt: 2 }} gutterBottom>
              {t('chats.templates.preview')}
            </Typography>
            <Paper variant="outlined" data-testid="template-preview" sx={{ p: 1.5, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', bgcolor: 'action.hover' }}>
              <Typography variant="body2">{renderTemplateBody(selected, params.map((p, i) => p.trim() || `{{${i + 1}}}`))}</Typography>
            </Paper>
          </Box>
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
