import { lazy, Suspense, useRef, useState } from 'react';
import { Avatar, AvatarGroup, Box, Button, Chip, IconButton, Menu, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { mdiAccountOutline, mdiArrowLeft, mdiCloseCircle, mdiBlockHelper, mdiPause, mdiPlay, mdiTagPlusOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { isRoomPaused, type PageInfo, type Room, type Tag } from '../../../../contract/chats';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { splitTags } from '../model/agentFeature';
import type { Viewer } from '../service/chatService';
import { channelName, dateTime, initials } from '../format';
import type { RoomUpdateBody } from '../../../../contract/conversations';
import { ConversationControls, type NarrowAction } from './ConversationControls';
import { useNarrowerThan } from './useNarrowerThan';

/**
 * Below this header width the bot pause and block move to the conversation's overflow menu: the name (at least a
 * few letters), the viewers, Pause bot, Block, Resolve, the assignee with a name and the menu need about this much
 * (measured in Chromium: 820 px in English, about 900 in French, whose labels are longer).
 */
const COMPACT_BELOW_PX = 900;

/** The tag field (an Autocomplete), loaded when the agent first adds a tag. */
const TagInput = lazy(() => import('./TagInput'));

interface Props {
  room: Room;
  pages: PageInfo[];
  viewers: Viewer[];
  tagOptions: Tag[];
  canEditTags: boolean;
  /** Without "manage chats": no pause, block, status or assignment controls (issue #22). */
  readOnly?: boolean;
  onBack?: () => void;
  onTogglePause: (days?: number) => void;
  onBlock: (blocked: boolean) => void;
  onAddTag: (name: string) => void;
  onRemoveTag: (name: string) => void;
  /** Issue #22: status, snooze and assignee (absent: the header shows none of it). */
  conversation?: { me: { id: number; first_name: string; email: string } | null; onUpdate: (body: RoomUpdateBody) => void };
}

/** Room header: name and channel, tags (agent tags apart), bot pause, block, and who else is viewing. */
export function RoomHeader({ room, pages, viewers, tagOptions, canEditTags, readOnly = false, onBack, onTogglePause, onBlock, onAddTag, onRemoveTag, conversation }: Props) {
  const { t, i18n } = useTranslation();
  const paused = isRoomPaused(room);
  const [pauseMenu, setPauseMenu] = useState<HTMLElement | null>(null);
  const [days, setDays] = useState('3');
  const [adding, setAdding] = useState(false);
  const [tagInput, setTagInput] = useState('');
  const { agent, ordinary } = splitTags(room.tags);
  const known = new Set(room.tags.map((x) => x.name));

  // With the conversation controls, a phone keeps the bot pause and block in their overflow menu (390 px must fit),
  // and so does a header too narrow for every button on one line (at 1440 px beside the room list and the contact
  // panel, "Resume bot" wrapped onto two lines and the assignee's name was cut to "As…").
  const [headerRef, compact] = useNarrowerThan<HTMLDivElement>(COMPACT_BELOW_PX);
  const compactHeader = !!conversation && compact;
  const oneLine = { whiteSpace: 'nowrap', flexShrink: 0 };
  const narrowHidden = conversation ? { ...oneLine, display: compactHeader ? 'none' : { xs: 'none', sm: 'inline-flex' } } : oneLine;
  const narrowActions: NarrowAction[] = [
    paused
      ? { key: 'resume', label: t('chats.room.resume'), icon: mdiPlay, onClick: () => onTogglePause() }
      : { key: 'pause', label: t('chats.room.pauseOneDay'), icon: mdiPause, onClick: () => onTogglePause(1) },
    { key: 'block', label: room.blocked_at ? t('chats.room.unblock') : t('chats.room.block'), icon: mdiBlockHelper, onClick: () => onBlock(!room.blocked_at) },
  ];

  const submitted = useRef(false);
  const submitTag = (name: string) => {
    if (submitted.current) return;
    submitted.current = true;
    const v = name.trim();
    if (v && !known.has(v)) onAddTag(v);
    setTagInput('');
    setAdding(false);
  };

  return (
    <Box ref={headerRef} data-testid="room-header" sx={{ px: 2, py: 1.25, borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Stack direction="row" spacing={1.5} alignItems="center">
        {onBack && (
          <IconButton aria-label={t('chats.room.back')} onClick={onBack} sx={{ display: { md: 'none' } }}>
            <MdiIcon path={mdiArrowLeft} />
          </IconButton>
        )}
        <Avatar sx={{ bgcolor: 'secondary.main', color: 'secondary.contrastText' }}>{initials(room.name)}</Avatar>
        {/* width 0: the name and id give way (ellipsis) instead of widening the page past a phone's 390 px. */}
        <Box sx={{ minWidth: 0, width: 0, flex: 1 }}>
          <Typography variant="h6" component="h2" noWrap data-testid="room-name">
            {room.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" noWrap component="p">
            {channelName(pages, room)} · {room.external_id}
          </Typography>
        </Box>
        {viewers.length > 0 && (
          <ConsoleTooltip title={t('chats.room.viewers', { names: viewers.map((v) => v.name || v.email).join(', ') })}>
            <AvatarGroup max={4} data-testid="room-viewers" sx={{ display: conversation ? { xs: 'none', sm: 'flex' } : 'flex', '& .MuiAvatar-root': { width: 28, height: 28, fontSize: 12 } }}>
              {viewers.map((v) => (
                <Avatar key={v.id} alt={v.name || v.email}>
                  {initials(v.name || v.email)}
                </Avatar>
              ))}
            </AvatarGroup>
          </ConsoleTooltip>
        )}
        {readOnly ? null : paused ? (
          <Button size="small" variant="outlined" startIcon={<MdiIcon path={mdiPlay} />} onClick={() => onTogglePause()} sx={narrowHidden}>
            {t('chats.room.resume')}
          </Button>
        ) : (
          <>
            <Button size="small" variant="outlined" startIcon={<MdiIcon path={mdiPause} />} onClick={(e) => setPauseMenu(e.currentTarget)} aria-haspopup="menu" sx={narrowHidden}>
              {t('chats.room.pauseBot')}
            </Button>
            <Menu anchorEl={pauseMenu} open={!!pauseMenu} onClose={() => setPauseMenu(null)}>
              <MenuItem
                onClick={() => {
                  setPauseMenu(null);
                  onTogglePause(1);
                }}
              >
                {t('chats.room.pauseOneDay')}
              </MenuItem>
              <Box
                component="form"
                sx={{ px: 2, py: 1, display: 'flex', gap: 1, alignItems: 'center' }}
                onSubmit={(e) => {
                  e.preventDefault();
                  const n = Math.max(1, Math.min(365, Math.floor(Number(days)) || 1));
                  setPauseMenu(null);
                  onTogglePause(n);
                }}
                onKeyDown={(e) => e.stopPropagation()}
              >
                <TextField size="small" type="number" label={t('chats.room.days')} value={days} onChange={(e) => setDays(e.target.value)} slotProps={{ htmlInput: { min: 1, max: 365 } }} sx={{ width: 90 }} />
                <Button type="submit" size="small">
                  {t('chats.room.pauseDays', { days: Math.max(1, Math.floor(Number(days)) || 1) })}
                </Button>
              </Box>
            </Menu>
          </>
        )}
        {!readOnly && (
          <Button size="small" color={room.blocked_at ? 'inherit' : 'error'} variant="outlined" startIcon={<MdiIcon path={mdiBlockHelper} />} onClick={() => onBlock(!room.blocked_at)} sx={narrowHidden}>
            {room.blocked_at ? t('chats.room.unblock') : t('chats.room.block')}
          </Button>
        )}
        {conversation && !readOnly && <ConversationControls room={room} me={conversation.me} onUpdate={conversation.onUpdate} narrowActions={narrowActions} compact={compactHeader} />}
      </Stack>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ mt: 1, flexWrap: 'wrap', rowGap: 0.5 }}>
        {room.status && room.status !== 'open' && (
          <Chip
            size="small"
            color={room.status === 'resolved' ? 'success' : 'default'}
            variant="outlined"
            data-testid="status-chip"
            label={room.status === 'snoozed' && room.snoozed_until ? t('chats.conversations.snoozedUntil', { date: dateTime(room.snoozed_until, i18n.language) }) : t(`chats.conversations.status.${room.status}`)}
          />
        )}
        {paused && <Chip size="small" color="warning" label={t('chats.room.paused', { date: dateTime(room.paused_until, i18n.language) })} data-testid="paused-chip" />}
        {room.blocked_at && <Chip size="small" color="error" label={t('chats.room.blocked')} data-testid="blocked-chip" />}
        {agent.map((tag) => (
          <Chip
            key={`a-${tag.name}`}
            size="small"
            color="primary"
            variant="outlined"
            icon={<MdiIcon path={mdiAccountOutline} />}
            label={tag.name}
            data-testid="agent-tag"
            onDelete={canEditTags ? () => onRemoveTag(tag.name) : undefined}
            deleteIcon={<MdiIcon path={mdiCloseCircle} role="button" aria-hidden={false} aria-label={t('chats.room.removeTag', { name: tag.name })} />}
          />
        ))}
        {ordinary.map((tag) => (
          <Chip
            key={`t-${tag.name}`}
            size="small"
            label={tag.name}
            data-testid="room-tag"
            onDelete={canEditTags ? () => onRemoveTag(tag.name) : undefined}
            deleteIcon={<MdiIcon path={mdiCloseCircle} role="button" aria-hidden={false} aria-label={t('chats.room.removeTag', { name: tag.name })} />}
          />
        ))}
        {canEditTags &&
          (adding ? (
            <Suspense fallback={null}>
              <TagInput
                options={tagOptions.map((x) => x.name).filter((n) => !known.has(n))}
                value={tagInput}
                onValueChange={setTagInput}
                onSubmit={submitTag}
                onCancel={() => setAdding(false)}
              />
            </Suspense>
          ) : (
            <Button size="small" startIcon={<MdiIcon path={mdiTagPlusOutline} />} onClick={() => {
                submitted.current = false;
                setAdding(true);
              }}>
              {t('chats.room.addTag')}
            </Button>
          ))}
      </Stack>
    </Box>
  );
}
