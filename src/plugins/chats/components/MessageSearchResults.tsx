/**
 * Issue #22: the inbox's search box also finds message text (GET /api/messages/search/, PostgreSQL
 * full text, only the rooms the member may open). Below the box while a term of 2+ characters is typed:
 * the matching messages, best first, each with its room, date and snippet (the words highlighted);
 * choosing one opens the room at that message (`?message=`).
 */
import { useEffect, useState } from 'react';
import { Box, Button, List, ListItem, ListItemButton, ListItemText, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Paged } from '../../../../contract/api';
import { splitHighlights, type MessageSearchResult } from '../../../../contract/notes';
import { httpApiRef, useApi } from '../../../core';
import { dateTime } from '../format';
import { useChatState } from '../hooks';

/** Typing pauses this long before the server is asked. */
export const MESSAGE_SEARCH_DEBOUNCE_MS = 300;

function Snippet({ snippet }: { snippet: string }) {
  return (
    <>
      {splitHighlights(snippet).map((part, i) =>
        part.mark ? (
          <Box component="mark" key={i} sx={{ bgcolor: 'warning.light', color: 'text.primary', px: 0.25, borderRadius: 0.5 }}>
            {part.text}
          </Box>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

export function MessageSearchResults() {
  const { t, i18n } = useTranslation();
  const http = useApi(httpApiRef);
  const navigate = useNavigate();
  const term = useChatState((s) => s.filter.term).trim();
  const [found, setFound] = useState<{ term: string; count: number; results: MessageSearchResult[]; page: number } | null>(null);

  useEffect(() => {
    if (term.length < 2) {
      setFound(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      http
        .get<Paged<MessageSearchResult>>('/api/messages/search/', { query: { q: term } })
        .then((r) => live && setFound({ term, count: r.count, results: r.results, page: 1 }))
        .catch(() => live && setFound({ term, count: 0, results: [], page: 1 }));
    }, MESSAGE_SEARCH_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [term, http]);

  const more = () => {
    if (!found) return;
    const page = found.page + 1;
    http
      .get<Paged<MessageSearchResult>>('/api/messages/search/', { query: { q: found.term, page } })
      .then((r) => setFound((prev) => (prev && prev.term === found.term ? { ...prev, results: [...prev.results, ...r.results], page } : prev)))
      .catch(() => undefined);
  };

  if (!found || term.length < 2) return null;
  return (
    <Box data-testid="message-search" sx={{ borderTop: 1, borderBottom: 1, borderColor: 'divider', maxHeight: '45%', overflow: 'auto', flexShrink: 0 }}>
      <Typography variant="overline" component="h2" sx={{ px: 2, pt: 0.5, display: 'block', color: 'text.secondary' }}>
        {t('chats.messageSearch.title', { count: found.count })}
      </Typography>
      {found.results.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 2, pb: 1 }}>
          {t('chats.messageSearch.none')}
        </Typography>
      ) : (
        <List dense disablePadding>
          {found.results.map((r) => (
            <ListItem key={r.message_id} disablePadding>
              <ListItemButton data-testid="message-search-result" onClick={() => navigate(`/chats/${r.room_id}?message=${r.message_id}`)}>
                <ListItemText
                  primary={
                    <Box component="span" sx={{ display: 'flex', gap: 1, justifyContent: 'space-between' }}>
                      <Box component="span" sx={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                        {r.room_name}
                      </Box>
                      <Box component="span" sx={{ color: 'text.secondary', fontSize: 12, flexShrink: 0 }}>
                        {dateTime(r.created_at, i18n.language)}
                      </Box>
                    </Box>
                  }
                  secondary={<Snippet snippet={r.snippet} />}
                  slotProps={{ secondary: { sx: { overflowWrap: 'anywhere' } } }}
                />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
      {found.results.length < found.count && (
        <Box sx={{ px: 2, pb: 1 }}>
          <Button size="small" onClick={more}>
            {t('chats.messageSearch.more')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
