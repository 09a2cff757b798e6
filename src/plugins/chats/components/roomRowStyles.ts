import type { CSSObject, Theme } from '@mui/material/styles';

/**
 * The room list's rows drawn by one set of rules under the list (`RoomList` applies them once), each row's parts plain
 * elements with these class names. A row of MUI components with `sx` (avatar, boxes, typographies, badge, icons:
 * about a dozen) made emotion serialise a dozen style objects per row at every render of the list; on a phone's first
 * load of the inbox that was the largest part of the list's render (bench/bundle, issue #26).
 */
export const ROOM_ROW = {
  row: 'RoomRow-root',
  avatar: 'RoomRow-avatar',
  body: 'RoomRow-body',
  line: 'RoomRow-line',
  /** The preview's line: the preview, the state icons, the unread count. */
  status: 'RoomRow-status',
  name: 'RoomRow-name',
  time: 'RoomRow-time',
  preview: 'RoomRow-preview',
  badge: 'RoomRow-badge',
  channel: 'RoomRow-channel',
  icon: 'RoomRow-icon',
  platform: 'RoomRow-platform',
  /** On the row when it has unread messages: the name bolder, the time in the primary colour. */
  unread: 'RoomRow-unread',
} as const;

const ellipsis: CSSObject = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', margin: 0 };

/** The rules of every row, under the list's root (given through `sx`: margins and radii in px strings, as sx reads a bare number there as theme spacing or radius units). */
export function roomRowStyles(theme: Theme): CSSObject {
  const c = (name: string) => `& .${name}`;
  return {
    // The state icons' colours, for the rows' plain svgs.
    '--RoomRow-error': theme.palette.error.main,
    '--RoomRow-warning': theme.palette.warning.main,
    [c(ROOM_ROW.row)]: {
      alignItems: 'flex-start',
      paddingTop: theme.spacing(1),
      paddingBottom: theme.spacing(1),
      borderBottom: `1px solid ${theme.palette.divider}`,
    },
    [c(ROOM_ROW.avatar)]: {
      flexShrink: 0,
      width: 36,
      height: 36,
      marginTop: '8px',
      marginRight: '12px',
      borderRadius: '50%',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      backgroundColor: theme.palette.secondary.main,
      color: theme.palette.secondary.contrastText,
      fontFamily: theme.typography.fontFamily,
      fontSize: 14,
      lineHeight: 1,
      userSelect: 'none',
    },
    [c(ROOM_ROW.body)]: { minWidth: 0, flex: 1 },
    [c(ROOM_ROW.line)]: { display: 'flex', alignItems: 'baseline', gap: theme.spacing(1) },
    [c(ROOM_ROW.status)]: { display: 'flex', alignItems: 'center', gap: theme.spacing(0.5) },
    [c(ROOM_ROW.name)]: { ...theme.typography.subtitle2, ...ellipsis, flex: 1, fontWeight: 500 },
    [c(ROOM_ROW.time)]: { ...theme.typography.caption, flexShrink: 0, color: theme.palette.text.secondary },
    [`& .${ROOM_ROW.unread} .${ROOM_ROW.name}`]: { fontWeight: 700 },
    [`& .${ROOM_ROW.unread} .${ROOM_ROW.time}`]: { color: theme.palette.primary.main },
    [c(ROOM_ROW.preview)]: { ...theme.typography.body2, ...ellipsis, flex: 1, color: theme.palette.text.secondary },
    [c(ROOM_ROW.badge)]: {
      flexShrink: 0,
      minWidth: 20,
      height: 20,
      padding: '0 6px',
      borderRadius: '10px',
      boxSizing: 'border-box',
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      backgroundColor: theme.palette.primary.main,
      color: theme.palette.primary.contrastText,
      fontFamily: theme.typography.fontFamily,
      fontWeight: theme.typography.fontWeightMedium,
      fontSize: theme.typography.pxToRem(12),
      lineHeight: 1,
    },
    [c(ROOM_ROW.channel)]: { ...theme.typography.caption, ...ellipsis, display: 'block', color: theme.palette.text.secondary },
    [c(ROOM_ROW.icon)]: { width: '1em', height: '1em', fontSize: 14, flexShrink: 0, fill: 'currentColor', verticalAlign: 'middle' },
    [c(ROOM_ROW.platform)]: { marginRight: '4px', marginTop: '-2px' },
  };
}
