import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, IconButton, Paper, Typography, useMediaQuery, useTheme } from '@mui/material';
import { mdiKeyboardOutline, mdiMessagePlusOutline, mdiVolumeHigh, mdiVolumeOff } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import type { Tag } from '../../../contract/chats';
import { ConsoleTooltip, ErrorPageBoundary, httpApiRef, lazyPage, MdiIcon, PageLoading, prewarmDateFormats, useAccess, useAccount, useApi, whenIdle } from '../../core';
import { INBOX_DATE_FORMATS } from './format';
import { ConnectionBadge } from './components/ConnectionBadge';
import { NoConversations, RoomUnavailable, SelectConversation } from './components/InboxPlaceholder';
import { WhenOpened } from './components/WhenOpened';
import { RoomFilters } from './components/RoomFilters';
import { RoomList } from './components/RoomList';
import { ContactPanelSlot } from '../contacts';
import { useChatService, useChatState } from './hooks';
import { agentTagOptions, canViewTags, hasAgentFeature, splitTags } from './model/agentFeature';
import { useBackgroundAlerts, useNotificationPrompt } from './notifications';
import { useSoundSetting } from './sound';
import { useSavedRepliesService } from './savedReplies/hooks';
import { searchWithTab, tabFromSearch } from './model/urlFilter';
import { MessageSearchResults } from './components/MessageSearchResults';
import { RoomTabs } from './components/RoomTabs';
import type { RoomTab } from '../../../contract/conversations';

const NewChatDialog = lazy(() => import('./components/NewChatDialog').then((m) => ({ default: m.NewChatDialog })));
// The open conversation (header and controls, the thread, the composer: most of the inbox's code) is a
// chunk of its own, so /chats renders its list without it (bench/bundle). Its fetch starts as soon as a
// room is in the URL or the list has loaded (see ChatsPage), so opening a room seldom waits for it; once
// fetched, a room opens without suspending (lazyPage).
const RoomView = lazyPage(() => import('./components/RoomView').then((m) => ({ default: m.RoomView })));

/** Loads the room view ahead of a room opening (a failure is left to the lazy view, which reports it when a room opens). */
function loadRoomView(): Promise<void> {
  return RoomView.preload().then(
    () => undefined,
    () => undefined,
  );
}
/** The same, for the list's pointer and focus handlers (whose return values React reads). */
function prefetchRoomView(): void {
  void loadRoomView();
}
/**
 * A link to a room (a notification, a reload) fetches the room view as soon as this module runs (its chunk is
 * preloaded with the inbox's from the HTML), and the shell's first render waits for it (core's warmRoute): the inbox
 * then renders with the room open rather than suspending for it (a suspended pane shows its fallback, then React
 * holds the room back until 300 ms after it: bench/bundle README, the open room).
 */
export const pageReady = typeof window !== 'undefined' && /^\/chats\/\d+\/?$/.test(window.location.pathname) ? loadRoomView() : undefined;

/** Members' e-mails, only needed in agent-feature companies (the agent tag list is limited to them). */
function useMemberEmails(enabled: boolean): string[] | null {
  const http = useApi(httpApiRef);
  const [emails, setEmails] = useState<string[] | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    http
      .get<{ results?: { email: string }[] }>('/api/chats/members/', { query: { page_size: 1000 } })
      .then((r) => live && setEmails((r.results ?? []).map((m) => m.email)))
      .catch(() => live && setEmails([]));
    return () => {
      live = false;
    };
  }, [enabled, http]);
  return emails;
}

/** /chats and /chats/{roomId}: the agents' live inbox. */
export default function ChatsPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const { company, companyId, user } = useAccount();
  const myId = user?.id ?? null;
  const service = useChatService();
  const savedReplies = useSavedRepliesService();
  const roomId = params.roomId && /^\d+$/.test(params.roomId) ? Number(params.roomId) : null;
  const selectedRoom = useChatState((s) => (roomId != null ? s.rooms[roomId] : undefined));
  const allTags = useChatState((s) => s.tags);
  const [newOpen, setNewOpen] = useState(false);
  const searchRef = useRef<HTMLInputElement>(null);
  const composerRef = useRef<HTMLTextAreaElement>(null);
  const prompt = useNotificationPrompt();

  const agentFeature = hasAgentFeature(company);
  const showTags = canViewTags(company, company?.role?.id);
  // Issue #22: without "manage chats" the inbox is read-only (no composer, no controls, no new chat).
  const { canManage } = useAccess('chats');
  const memberEmails = useMemberEmails(agentFeature);
  const tagOptions: Tag[] = useMemo(() => {
    const { ordinary } = splitTags(allTags);
    return [...ordinary, ...agentTagOptions(allTags, memberEmails, agentFeature)];
  }, [allTags, memberEmails, agentFeature]);

  useEffect(() => {
    if (companyId != null) service.start();
  }, [service, companyId]);
  useEffect(() => prewarmDateFormats(i18n.language, INBOX_DATE_FORMATS), [i18n.language]);
  // The company's saved replies (agent templates) for the composer; a company switch reloads them (spec §4).
  useEffect(() => {
    if (companyId != null) void savedReplies.start();
  }, [savedReplies, companyId]);
  useEffect(() => {
    service.selectRoom(roomId);
  }, [service, roomId]);
  // Leaving the inbox: no room is selected, so new customer messages count as unread again.
  useEffect(() => () => service.selectRoom(null), [service]);

  const titleFor = useCallback((name: string) => t('chats.notifications.title', { name }), [t]);
  const sound = useSoundSetting();
  const openRoomId = useCallback(() => service.getState().selectedRoomId ?? null, [service]);
  useBackgroundAlerts(service, titleFor, useMemo(() => ({ myId, openRoomId }), [myId, openRoomId]));

  // /chats?filter=mine|unassigned: the URL holds the tab (Mine, Unassigned, All: issue #22); the list follows it,
  // the tabs and the filter control change it, and opening or leaving a room keeps it.
  const location = useLocation();
  const search = location.search;
  const tab = tabFromSearch(search);
  const unassignedOnly = tab === 'unassigned';
  useEffect(() => {
    const filter = service.getState().filter;
    const mine = tab === 'mine' ? myId : null;
    if (!!filter.unassigned !== unassignedOnly || (filter.mine ?? null) !== mine) service.setFilter({ unassigned: unassignedOnly, mine });
  }, [service, tab, unassignedOnly, myId, companyId]);
  const setTab = useCallback(
    (next: RoomTab) => navigate({ pathname: location.pathname, search: searchWithTab(search, next) }, { replace: true }),
    [navigate, location.pathname, search],
  );
  const setUnassignedOnly = useCallback((on: boolean) => setTab(on ? 'unassigned' : 'all'), [setTab]);

  const open = useCallback((id: number) => navigate({ pathname: `/chats/${id}`, search }), [navigate, search]);

  // Keyboard: Alt+↓/Alt+↑ next/previous room, "/" or Ctrl+K search.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      const typing = !!target && (target.tagName === 'INPUT' || target.tagName === 'TEXTAREA' || target.isContentEditable);
      if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        const ids = service.getState().visibleRoomIds;
        if (!ids.length) return;
        const at = roomId == null ? -1 : ids.indexOf(roomId);
        const next = e.key === 'ArrowDown' ? Math.min(ids.length - 1, at + 1) : Math.max(0, at - 1);
        if (ids[next] !== roomId) open(ids[next]);
      } else if ((e.key === 'k' || e.key === 'K') && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        searchRef.current?.focus();
      } else if (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        searchRef.current?.focus();
      } else if ((e.key === 'e' || e.key === 'E') && canManage && !typing && !e.ctrlKey && !e.metaKey && !e.altKey && roomId != null) {
        // One key resolves the open conversation (issue #22); it leaves the open view at once.
        const room = service.getState().rooms[roomId];
        if (room && room.status !== 'resolved') {
          e.preventDefault();
          void service.updateRoom(roomId, { status: 'resolved' });
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [service, roomId, open, canManage]);

  // With no room open: nothing while the list loads, the next steps when the company has no
  // conversation at all (no filter hides any), else a prompt to choose one. The list says "Nothing Found".
  const roomsLoaded = useChatState((s) => s.roomsLoaded);
  // Under a status filter, "no conversation at all" also needs the counts to say so (every status empty).
  const noConversations = useChatState(
    (s) =>
      s.roomsLoaded &&
      s.visibleRoomIds.length === 0 &&
      !s.filter.term.trim() &&
      !s.filter.tags.length &&
      !s.filter.channels.length &&
      !s.filter.unassigned &&
      s.filter.mine == null &&
      (!s.filter.status || s.filter.status === 'all' || !s.counts || Object.values(s.counts).every((c) => c.all === 0)),
  );

  // A link to a room fetches the room view beside the rooms' request; otherwise once the list is shown and the
  // browser is idle, or sooner when the user reaches for the list (a pointer over it, a touch, the focus). Loading
  // it is a task of 40-120 ms at 4x CPU (its code and its dependencies' preload links): called from the list's
  // effect, it landed in the rooms' first render and made it one long task of a phone's load (bench/bundle).
  // A failed fetch is left to the lazy RoomView, which imports again and reports it when a room opens.
  useEffect(() => {
    if (roomId != null) prefetchRoomView();
    else if (roomsLoaded) return whenIdle(prefetchRoomView);
  }, [roomId, roomsLoaded]);

  const unavailable = useChatState((s) => roomId != null && !!s.unavailableRooms[roomId]);
  const showRoom = roomId != null && !!selectedRoom && !unavailable;
  // Under md a room open takes the whole width and the list is hidden beside it: it is then not rendered at all (on a
  // phone opened from a notification, its filters, tabs and rows were rendered for nothing before the thread showed:
  // 0.7 s less to the first message without them, bench/bundle README). Its state is the service's, so going back to it
  // renders it as it was. (The list's `display` below still hides it where the media query cannot be asked.)
  const narrow = useMediaQuery(useTheme().breakpoints.down('md'), { noSsr: true });
  const listShown = !(narrow && roomId != null);
  return (
    <Box data-testid="chats-page" sx={{ display: 'flex', height: { xs: 'calc(100vh - 56px)', sm: 'calc(100vh - 64px)' }, minHeight: 400, overflow: 'hidden', mx: { xs: -1, sm: 0 } }}>
      {listShown && (
      <Paper
        square
        elevation={0}
        sx={{ width: { xs: '100%', md: 360 }, flexShrink: 0, borderRight: 1, borderColor: 'divider', display: { xs: roomId != null ? 'none' : 'flex', md: 'flex' }, flexDirection: 'column', minHeight: 0 }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, pt: 1.5, pb: 1 }}>
          <Typography variant="h5" component="h1" sx={{ flex: 1, fontWeight: 700 }}>
            {t('chats.title')}
          </Typography>
          <ConnectionBadge />
          <ConsoleTooltip title={t('chats.shortcuts')}>
            <IconButton size="small" aria-label={t('chats.shortcuts')}>
              <MdiIcon path={mdiKeyboardOutline} fontSize="small" />
            </IconButton>
          </ConsoleTooltip>
          <ConsoleTooltip title={t(sound.on ? 'chats.sound.on' : 'chats.sound.off')}>
            <IconButton size="small" aria-label={t('chats.sound.label')} aria-pressed={sound.on} onClick={sound.toggle} data-testid="sound-toggle">
              <MdiIcon path={sound.on ? mdiVolumeHigh : mdiVolumeOff} fontSize="small" />
            </IconButton>
          </ConsoleTooltip>
          {canManage && (
            <ConsoleTooltip title={t('chats.newChat')}>
              <IconButton color="primary" aria-label={t('chats.newChat')} onClick={() => setNewOpen(true)}>
                <MdiIcon path={mdiMessagePlusOutline} />
              </IconButton>
            </ConsoleTooltip>
          )}
        </Box>
        {prompt.visible && (
          <Alert
            severity="info"
            icon={false}
            sx={{ mx: 1.5, mb: 1, py: 0, alignItems: 'center', '& .MuiAlert-message': { fontSize: 13 }, '& .MuiAlert-action .MuiButton-root': { whiteSpace: 'nowrap' } }}
            action={
              <>
                <Button size="small" onClick={prompt.allow}>
                  {t('chats.notifications.allow')}
                </Button>
                <Button size="small" color="inherit" onClick={prompt.dismiss}>
                  {t('chats.notifications.dismiss')}
                </Button>
              </>
            }
          >
            {t('chats.notifications.enable')}
          </Alert>
        )}
        <RoomFilters ref={searchRef} tagOptions={tagOptions} showTags={showTags} unassignedOnly={unassignedOnly} onUnassignedOnlyChange={setUnassignedOnly} />
        <RoomTabs tab={tab} onTabChange={setTab} />
        <MessageSearchResults />
        <Box sx={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }} onPointerOver={prefetchRoomView} onTouchStart={prefetchRoomView} onFocus={prefetchRoomView}>
          <RoomList selectedId={roomId} onSelect={open} />
        </Box>
      </Paper>
      )}
      <Box sx={{ flex: 1, minWidth: 0, display: { xs: roomId != null ? 'flex' : 'none', md: 'flex' }, flexDirection: 'column' }}>
        {showRoom ? (
          // A room view that fails (its code not fetched on a dropped network) fails in this pane: the list beside it
          // stays, and another room chosen resets the pane, which imports the code again (lazyPage).
          <ErrorPageBoundary>
            <Suspense fallback={<PageLoading />}>
              <RoomView key={roomId} roomId={roomId} tagOptions={tagOptions} canEditTags={showTags && canManage} readOnly={!canManage} onBack={() => navigate({ pathname: '/chats', search })} composerRef={composerRef} />
            </Suspense>
          </ErrorPageBoundary>
        ) : unavailable ? (
          <RoomUnavailable onBack={() => navigate({ pathname: '/chats', search })} />
        ) : roomId != null ? null : noConversations ? (
          <NoConversations />
        ) : roomsLoaded ? (
          <SelectConversation />
        ) : null}
      </Box>
      {showRoom && <ContactPanelSlot roomId={roomId} onOpenRoom={open} />}
      <WhenOpened open={newOpen}>
        <NewChatDialog
          open={newOpen}
          onClose={() => setNewOpen(false)}
          onCreated={(room) => {
            setNewOpen(false);
            open(room.id);
          }}
        />
      </WhenOpened>
    </Box>
  );
}
