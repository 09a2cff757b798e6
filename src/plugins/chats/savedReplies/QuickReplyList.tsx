import { Box, Button, List, ListItemButton, ListItemText, Paper, Typography } from '@mui/material';
import { mdiCogOutline } from '@mdi/js';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgentTemplate } from '../../../../contract/agentTemplates';
import { MdiIcon } from '../../../core';

interface Props {
  id: string;
  templates: AgentTemplate[];
  activeIndex: number;
  query: string;
  loading: boolean;
  failed: boolean;
  /** The company has templates at all (distinguishes "none yet" from "no match"). */
  hasAny: boolean;
  onPick: (template: AgentTemplate) => void;
  onHover: (index: number) => void;
  onManage: () => void;
}

export const optionId = (listId: string, template: AgentTemplate) => `${listId}-option-${template.id}`;

/** The quick-reply popup above the composer's input: the (filtered) saved replies, keyboard-driven by the composer. */
export function QuickReplyList({ id, templates, activeIndex, query, loading, failed, hasAny, onPick, onHover, onManage }: Props) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLUListElement>(null);
  const active = templates[activeIndex];

  useEffect(() => {
    if (!active) return;
    const el = listRef.current?.querySelector(`[id="${optionId(id, active)}"]`) as HTMLElement | null;
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [active, id]);

  const status = loading && !hasAny ? t('chats.savedReplies.loading') : failed && !hasAny ? t('chats.savedReplies.loadFailed') : !hasAny ? t('chats.savedReplies.empty') : templates.length === 0 ? t('chats.savedReplies.noMatch', { query }) : null;

  return (
    <Paper
      elevation={8}
      data-testid="quick-replies"
      // Clicks inside keep the focus in the composer's input.
      onMouseDown={(e) => e.preventDefault()}
      sx={{ position: 'absolute', bottom: '100%', left: 12, right: 12, mb: 0.5, zIndex: 10, display: 'flex', flexDirection: 'column', maxHeight: 320 }}
    >
      {status ? (
        <Typography role="status" variant="body2" color="text.secondary" sx={{ px: 2, py: 1.5 }}>
          {status}
        </Typography>
      ) : (
        <List ref={listRef} id={id} role="listbox" aria-label={t('chats.savedReplies.listLabel')} dense sx={{ overflow: 'auto', flex: 1, py: 0.5 }}>
          {templates.map((template, index) => (
            <ListItemButton
              key={template.id}
              id={optionId(id, template)}
              role="option"
              aria-selected={index === activeIndex}
              selected={index === activeIndex}
              onMouseEnter={() => onHover(index)}
              onClick={() => onPick(template)}
            >
              <ListItemText
                primary={template.name}
                secondary={template.text}
                slotProps={{
                  primary: { sx: { fontWeight: 600 } },
                  secondary: { sx: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } },
                }}
              />
            </ListItemButton>
          ))}
        </List>
      )}
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, py: 0.5, borderTop: 1, borderColor: 'divider' }}>
        <Typography variant="caption" color="text.secondary" sx={{ flex: 1 }}>
          {t('chats.savedReplies.hint')}
        </Typography>
        <Button size="small" startIcon={<MdiIcon path={mdiCogOutline} />} onClick={onManage}>
          {t('chats.savedReplies.manage')}
        </Button>
      </Box>
    </Paper>
  );
}
