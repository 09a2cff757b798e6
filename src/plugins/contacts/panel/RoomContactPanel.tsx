import { useState, type ReactNode } from 'react';
import { Alert, Box, CircularProgress, Drawer, IconButton, Paper, Typography } from '@mui/material';
import { mdiAccountBoxOutline, mdiChevronRight, mdiClose } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, MdiIcon } from '../../../core';
import { ContactPanelBody } from './ContactPanelBody';
import { useAttributes } from '../model/hooks';
import { useRoomContact } from './useRoomContact';
import { columnSx, ContactSheetButton, railSx, readPanelOpen, usePanelPlacement, writePanelOpen } from './placement';

function PanelContent({ roomId, onOpenRoom }: { roomId: number; onOpenRoom: (roomId: number) => void }) {
  const { t } = useTranslation();
  const contact = useRoomContact(roomId);
  // Asked beside the contact, not once its body renders: one wait instead of two on a phone's network.
  const attributes = useAttributes();
  if (contact.isPending || attributes.isPending) return <CircularProgress size={20} aria-label={t('contacts.panel.title')} />;
  if (contact.isError || !contact.data) return <Alert severity="error">{t('contacts.panel.loadFailed')}</Alert>;
  return <ContactPanelBody contact={contact.data} roomId={roomId} onOpenRoom={onOpenRoom} update={(patch) => contact.update(patch)} />;
}

/** The panel over the page: a bottom sheet on phones, a drawer from the right on laptops; choosing a room closes it. */
function PanelDrawer(props: { anchor: 'bottom' | 'right'; open: boolean; onClose: () => void; title: ReactNode; roomId: number; onOpenRoom: (roomId: number) => void }) {
  const { t } = useTranslation();
  const paper = props.anchor === 'bottom' ? { maxHeight: '85vh', borderTopLeftRadius: 12, borderTopRightRadius: 12 } : { width: 320, maxWidth: '90vw' };
  return (
    <Drawer anchor={props.anchor} open={props.open} onClose={props.onClose} slotProps={{ paper: { sx: paper } }}>
      <Box role="region" aria-label={t('contacts.panel.title')} data-testid="contact-panel" sx={{ p: 2, overflowY: 'auto' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
          {props.title}
          <IconButton aria-label={t('contacts.panel.close')} onClick={props.onClose}>
            <MdiIcon path={mdiClose} />
          </IconButton>
        </Box>
        <PanelContent roomId={props.roomId} onOpenRoom={(id) => { props.onClose(); props.onOpenRoom(id); }} />
      </Box>
    </Drawer>
  );
}

/** The thin column the panel collapses to beside the thread: one button that shows it. */
function ShowPanelButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation();
  return (
    <Box sx={railSx}>
      <ConsoleTooltip title={t('contacts.panel.show')}>
        <IconButton aria-label={t('contacts.panel.show')} onClick={onClick}>
          <MdiIcon path={mdiAccountBoxOutline} />
        </IconButton>
      </ConsoleTooltip>
    </Box>
  );
}

/**
 * The inbox's contact panel beside the thread: a column that collapses to a button on wide screens (from
 * COLUMN_MIN_SCREEN), a drawer over the thread from a button on laptops, a bottom sheet on phones (390 px).
 */
export function RoomContactPanel({ roomId, onOpenRoom, sheetOpen = false }: { roomId: number; onOpenRoom: (roomId: number) => void; /** The phone's sheet shown from the start (its button was pressed before this code came). */ sheetOpen?: boolean }) {
  const { t } = useTranslation();
  const placement = usePanelPlacement();
  const [open, setOpen] = useState(readPanelOpen);
  const [sheet, setSheet] = useState(sheetOpen);
  const [overlay, setOverlay] = useState(false);
  const toggle = (next: boolean) => {
    setOpen(next);
    writePanelOpen(next);
  };
  const title = (
    <Typography variant="subtitle1" component="h2" fontWeight={700} sx={{ flex: 1 }}>
      {t('contacts.panel.title')}
    </Typography>
  );

  if (placement === 'sheet') {
    return (
      <>
        <ContactSheetButton onClick={() => setSheet(true)} />
        <PanelDrawer anchor="bottom" open={sheet} onClose={() => setSheet(false)} title={title} roomId={roomId} onOpenRoom={onOpenRoom} />
      </>
    );
  }

  if (placement === 'overlay') {
    return (
      <>
        <ShowPanelButton onClick={() => setOverlay(true)} />
        <PanelDrawer anchor="right" open={overlay} onClose={() => setOverlay(false)} title={title} roomId={roomId} onOpenRoom={onOpenRoom} />
      </>
    );
  }

  if (!open) {
    return <ShowPanelButton onClick={() => toggle(true)} />;
  }
  return (
    <Paper square elevation={0} role="region" aria-label={t('contacts.panel.title')} data-testid="contact-panel" sx={{ ...columnSx, overflowY: 'auto', overflowX: 'hidden', p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        {title}
        <ConsoleTooltip title={t('contacts.panel.hide')}>
          <IconButton size="small" aria-label={t('contacts.panel.hide')} onClick={() => toggle(false)}>
            <MdiIcon path={mdiChevronRight} fontSize="small" />
          </IconButton>
        </ConsoleTooltip>
      </Box>
      <PanelContent roomId={roomId} onOpenRoom={onOpenRoom} />
    </Paper>
  );
}
