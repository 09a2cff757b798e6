/**
 * Issue #22: the member's notifications in the app bar, on every page: a bell with the unread count and
 * a list (newest first, paged) linking to the room, and the note for a mention. Live: the bell joins the
 * member's own topic `notifications:{userId}` on a socket of its own (the inbox's socket only runs on
 * /chats); a new one also raises the browser notification the inbox offers, while the tab is hidden.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Box, Button, IconButton, List, ListItem, ListItemButton, ListItemText, Popover, Typography } from '@mui/material';
import { mdiBellOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { NOTIFICATION_EVENT, notificationTopic, type Notification } from '../../../../contract/notes';
import type { Paged } from '../../../../contract/api';
import { ConsoleTooltip, httpApiRef, MdiIcon, realtimeApiRef, useAccount, useApi } from '../../../core';
import { dateTime } from '../format';
import { notificationLink, notificationText } from './notificationText';

function showBrowserNotification(title: string, body: string, onClick: () => void) {
  if (typeof window === 'undefined' || !('Notification' in window) || window.Notification.permission !== 'granted' || !document.hidden) return;
  try {
    const n = new window.Notification(title, { body, tag: `notification-${body}` });
    n.onclick = () => {
      window.focus();
      onClick();
      n.close();
    };
  } catch {
    /* some browsers only allow notifications from a service worker */
  }
}

export function NotificationBell() {
  const { t, i18n } = useTranslation();
  const http = useApi(httpApiRef);
  const realtime = useApi(realtimeApiRef);
  const { user, companyId } = useAccount();
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [unread, setUnread] = useState(0);
  const [items, setItems] = useState<Notification[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);
  const userId = user?.id ?? null;

  const loadUnread = useCallback(() => {
    http
      .get<Paged<Notification>>('/api/notifications/', { query: { unread: 'true' } })
      .then((r) => setUnread(r.count))
      .catch(() => undefined);
  }, [http]);

  const loadPage = useCallback(
    (page: number) => {
      setFailed(false);
      http
        .get<Paged<Notification>>('/api/notifications/', { query: { page } })
        .then((r) => {
          setItems((prev) => (page === 1 || !prev ? r.results : [...prev, ...r.results.filter((n) => !prev.some((p) => p.id === n.id))]));
          setNext(r.next ? page + 1 : null);
        })
        .catch(() => setFailed(true));
    },
    [http],
  );

  // What a live notification does, with this render's `t` and `navigate`: read through a ref, so that the socket
  // below does not depend on them. react-router's navigate changes at every page change, and the bell connected a
  // socket again at each one (the connects a user may make in a minute are limited: the page lost live updates).
  const onNotification = useRef<(n: Notification) => void>(() => undefined);
  onNotification.current = (n: Notification) => {
    setUnread((c) => c + 1);
    setItems((prev) => (prev ? [n, ...prev.filter((p) => p.id !== n.id)] : prev));
    showBrowserNotification(t('chats.bell.browserTitle'), notificationText(t, n), () => navigate(notificationLink(n)));
  };

  // The unread count, then live: each company's notifications come on that company's socket.
  useEffect(() => {
    if (userId === null || companyId == null) return;
    setItems(null);
    loadUnread();
    const socket = realtime.createSocket();
    socket.connect();
    const channel = socket.channel(notificationTopic(userId), {});
    channel.on(NOTIFICATION_EVENT, (n: Notification) => onNotification.current(n));
    channel.join();
    return () => {
      channel.leave();
      socket.disconnect();
    };
  }, [userId, companyId, realtime, loadUnread]);

  const open = (el: HTMLElement) => {
    setAnchor(el);
    loadPage(1);
  };

  const follow = async (n: Notification) => {
    setAnchor(null);
    navigate(notificationLink(n));
    if (n.read_at) return;
    try {
      const read = await http.post<Notification>(`/api/notifications/${n.id}/read/`);
      setItems((prev) => prev?.map((p) => (p.id === n.id ? read : p)) ?? prev);
      setUnread((c) => Math.max(0, c - 1));
    } catch {
      /* stays unread: the next opening shows it again */
    }
  };

  const label = unread > 0 ? t('chats.bell.unread', { count: unread }) : t('chats.bell.button');
  return (
    <>
      <ConsoleTooltip title={label}>
        <IconButton color="inherit" aria-label={label} data-testid="notification-bell" onClick={(e) => open(e.currentTarget)}>
          <Badge badgeContent={unread} color="error" max={99} data-testid="notification-count">
            <MdiIcon path={mdiBellOutline} />
          </Badge>
        </IconButton>
      </ConsoleTooltip>
      <Popover
        open={!!anchor}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 360, maxWidth: 'calc(100vw - 16px)', maxHeight: 480 } } }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ px: 2, pt: 1.5, pb: 0.5, fontWeight: 600 }}>
          {t('chats.bell.title')}
        </Typography>
        {failed && (
          <Typography color="error" variant="body2" sx={{ px: 2, py: 1 }}>
            {t('chats.bell.loadFailed')}
          </Typography>
        )}
        {items && items.length === 0 && (
          <Typography color="text.secondary" variant="body2" sx={{ px: 2, py: 2 }} data-testid="notifications-empty">
            {t('chats.bell.empty')}
          </Typography>
        )}
        {items && items.length > 0 && (
          <List dense data-testid="notification-list">
            {items.map((n) => (
              <ListItem key={n.id} disablePadding>
                <ListItemButton data-testid="notification-item" data-read={n.read_at ? 'true' : 'false'} onClick={() => void follow(n)} sx={{ alignItems: 'flex-start' }}>
                  <Box component="span" aria-hidden sx={{ width: 8, height: 8, mt: 1, mr: 1.5, flexShrink: 0, borderRadius: '50%', bgcolor: n.read_at ? 'transparent' : 'primary.main' }} />
                  <ListItemText primary={notificationText(t, n)} secondary={dateTime(n.created_at, i18n.language)} slotProps={{ primary: { sx: { fontWeight: n.read_at ? 400 : 600 } } }} />
                </ListItemButton>
              </ListItem>
            ))}
          </List>
        )}
        {next !== null && (
          <Box sx={{ px: 2, pb: 1.5 }}>
            <Button size="small" onClick={() => loadPage(next)}>
              {t('chats.bell.loadMore')}
            </Button>
          </Box>
        )}
      </Popover>
    </>
  );
}
