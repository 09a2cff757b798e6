import { useMemo, useState } from 'react';
import { Avatar, Box, Button, CircularProgress, Divider, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Popover, TextField, Typography } from '@mui/material';
import { mdiAccountCancelOutline, mdiAccountCheckOutline, mdiAlarmSnooze, mdiCheckCircleOutline, mdiDotsVertical, mdiRestore, mdiTimerSandEmpty } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import type { Room } from '../../../../contract/chats';
import { snoozePresets, type RoomUpdateBody } from '../../../../contract/conversations';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { useChatMembers } from './useChatMembers';
import { initials } from '../format';

/** An action the header shows as a button on wide screens and puts in the overflow menu on a phone. */
export interface NarrowAction {
  key: string;
  label: string;
  icon: string;
  onClick: () => void;
}

interface Props {
  room: Room;
  /** The signed-in member ("Assign to me"). */
  me: { id: number; first_name: string; email: string } | null;
  onUpdate: (body: RoomUpdateBody) => void;
  /** The header's own buttons (bot pause, block) that move into the overflow menu below 600 px, or when `compact`. */
  narrowActions?: NarrowAction[];
  /** The header is too narrow for its buttons (whatever the window's width): the narrow actions are in the menu. */
  compact?: boolean;
}

/**
 * Issue #22 in the room header: resolve (or reopen), the assignee picker (search by name or e-mail,
 * "Assign to me", unassign) and an overflow menu (snooze presets, pending, and on a phone the header's
 * other buttons), so the header fits 390 px.
 */
export function ConversationControls({ room, me, onUpdate, narrowActions = [], compact = false }: Props) {
  const { t } = useTranslation();
  const [more, setMore] = useState<HTMLElement | null>(null);
  const [picker, setPicker] = useState<HTMLElement | null>(null);
  const [term, setTerm] = useState('');
  const members = useChatMembers(!!picker);
  const resolved = room.status === 'resolved';
  const assignee = room.assignee;

  const shown = useMemo(() => {
    const q = term.trim().toLowerCase();
    return (members ?? []).filter((m) => !q || `${m.first_name} ${m.last_name}`.toLowerCase().includes(q) || m.email.toLowerCase().includes(q));
  }, [members, term]);

  const update = (body: RoomUpdateBody) => {
    setMore(null);
    setPicker(null);
    onUpdate(body);
  };
  const statusAction = resolved ? { label: t('chats.conversations.reopen'), icon: mdiRestore, status: 'open' as const } : { label: t('chats.conversations.resolve'), icon: mdiCheckCircleOutline, status: 'resolved' as const };

  return (
    <>
      {/* describeChild: the hint describes the buttons (their own labels name them), no label on the wrapping span. */}
      <ConsoleTooltip describeChild title={resolved ? statusAction.label : t('chats.conversations.resolveHint')}>
        <Box component="span" sx={{ display: 'inline-flex' }}>
          <Button
            size="small"
            variant={resolved ? 'outlined' : 'contained'}
            color={resolved ? 'inherit' : 'success'}
            startIcon={<MdiIcon path={statusAction.icon} />}
            onClick={() => update({ status: statusAction.status })}
            data-testid={resolved ? 'reopen-room' : 'resolve-room'}
            sx={{ display: { xs: 'none', sm: 'inline-flex' }, whiteSpace: 'nowrap' }}
          >
            {statusAction.label}
          </Button>
          <IconButton
            aria-label={statusAction.label}
            color={resolved ? 'default' : 'success'}
            onClick={() => update({ status: statusAction.status })}
            data-testid={resolved ? 'reopen-room-narrow' : 'resolve-room-narrow'}
            sx={{ display: { xs: 'inline-flex', sm: 'none' } }}
          >
            <MdiIcon path={statusAction.icon} />
          </IconButton>
        </Box>
      </ConsoleTooltip>
      <ConsoleTooltip title={assignee ? t('chats.conversations.assignedTo', { name: assignee.first_name || assignee.email }) : t('chats.conversations.unassigned')}>
        <Button
          size="small"
          variant="outlined"
          color="inherit"
          aria-label={t('chats.conversations.assignee')}
          aria-haspopup="dialog"
          onClick={(e) => {
            setTerm('');
            setPicker(e.currentTarget);
          }}
          data-testid="assignee-button"
          sx={{ minWidth: 0, flexShrink: 0, px: 0.75, gap: 0.75 }}
        >
          <Avatar sx={{ width: 24, height: 24, fontSize: 11 }}>{assignee ? initials(assignee.first_name || assignee.email) : '–'}</Avatar>
          <Box component="span" data-testid="assignee-name" sx={{ display: { xs: 'none', sm: 'inline' }, maxWidth: 120, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {assignee ? assignee.first_name || assignee.email : t('chats.conversations.assign')}
          </Box>
        </Button>
      </ConsoleTooltip>
      <Popover open={!!picker} anchorEl={picker} onClose={() => setPicker(null)} anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }} transformOrigin={{ vertical: 'top', horizontal: 'right' }}>
        <Box sx={{ width: 300, maxWidth: 'calc(100vw - 32px)', p: 1 }} role="dialog" aria-label={t('chats.conversations.assignee')}>
          <Box sx={{ display: 'flex', gap: 1, mb: 1 }}>
            {me && assignee?.id !== me.id && (
              <Button size="small" startIcon={<MdiIcon path={mdiAccountCheckOutline} />} onClick={() => update({ assignee_id: me.id })} data-testid="assign-to-me">
                {t('chats.conversations.assignToMe')}
              </Button>
            )}
            {assignee && (
              <Button size="small" color="inherit" startIcon={<MdiIcon path={mdiAccountCancelOutline} />} onClick={() => update({ assignee_id: null })} data-testid="unassign">
                {t('chats.conversations.unassign')}
              </Button>
            )}
          </Box>
          <TextField
            size="small"
            fullWidth
            autoFocus
            placeholder={t('chats.conversations.searchMembers')}
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            slotProps={{ htmlInput: { 'aria-label': t('chats.conversations.searchMembers'), 'data-testid': 'assignee-search' } }}
          />
          <Box sx={{ maxHeight: 280, overflowY: 'auto', mt: 0.5 }}>
            {members === null ? (
              <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1 }}>
                <CircularProgress size={16} />
                <Typography variant="body2">{t('chats.conversations.loadingMembers')}</Typography>
              </Box>
            ) : shown.length === 0 ? (
              <Typography variant="body2" color="text.secondary" sx={{ p: 1 }}>
                {t('chats.conversations.noMembers')}
              </Typography>
            ) : (
              shown.map((m) => {
                const name = `${m.first_name} ${m.last_name}`.trim() || m.email;
                return (
                  <MenuItem key={m.user_id} selected={assignee?.id === m.user_id} onClick={() => update({ assignee_id: m.user_id })} data-testid="assignee-option">
                    <ListItemIcon>
                      <Avatar src={m.profile_avatar_url ?? undefined} alt="" sx={{ width: 28, height: 28, fontSize: 12 }}>
                        {initials(name)}
                      </Avatar>
                    </ListItemIcon>
                    <ListItemText
                      primary={m.user_id === me?.id ? t('chats.conversations.you', { name }) : name}
                      secondary={m.email}
                      slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                    />
                  </MenuItem>
                );
              })
            )}
          </Box>
        </Box>
      </Popover>
      <ConsoleTooltip title={t('chats.conversations.more')}>
        <IconButton aria-label={t('chats.conversations.more')} aria-haspopup="menu" onClick={(e) => setMore(e.currentTarget)} data-testid="room-more">
          <MdiIcon path={mdiDotsVertical} />
        </IconButton>
      </ConsoleTooltip>
      <Menu anchorEl={more} open={!!more} onClose={() => setMore(null)}>
        {snoozePresets(new Date()).map((preset) => (
          <MenuItem key={preset.key} onClick={() => update({ status: 'snoozed', snoozed_until: preset.until.toISOString() })} data-testid={`snooze-${preset.key}`}>
            <ListItemIcon>
              <MdiIcon path={mdiAlarmSnooze} fontSize="small" />
            </ListItemIcon>
            {t('chats.conversations.snooze')} · {t(`chats.conversations.snoozePresets.${preset.key}`)}
          </MenuItem>
        ))}
        {room.status !== 'pending' && (
          <MenuItem onClick={() => update({ status: 'pending' })} data-testid="mark-pending">
            <ListItemIcon>
              <MdiIcon path={mdiTimerSandEmpty} fontSize="small" />
            </ListItemIcon>
            {t('chats.conversations.markPending')}
          </MenuItem>
        )}
        {room.status !== 'open' && !resolved && (
          <MenuItem onClick={() => update({ status: 'open' })} data-testid="reopen-from-menu">
            <ListItemIcon>
              <MdiIcon path={mdiRestore} fontSize="small" />
            </ListItemIcon>
            {t('chats.conversations.reopen')}
          </MenuItem>
        )}
        {narrowActions.length > 0 && <Divider sx={{ display: compact ? 'block' : { xs: 'block', sm: 'none' } }} />}
        {narrowActions.map((action) => (
          <MenuItem
            key={action.key}
            onClick={() => {
              setMore(null);
              action.onClick();
            }}
            sx={{ display: compact ? 'flex' : { xs: 'flex', sm: 'none' } }}
          >
            <ListItemIcon>
              <MdiIcon path={action.icon} fontSize="small" />
            </ListItemIcon>
            {action.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
