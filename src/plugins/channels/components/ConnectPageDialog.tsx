import { useEffect, useId, useState } from 'react';
import {
  Alert,
  Avatar,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControlLabel,
  Radio,
  RadioGroup,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';
import type { FacebookPage } from '../../../../contract/channels';
import type { SocialPlatform } from '../hooks';
import { PLATFORM_ICONS } from './channelDisplay';

/** The pages a platform can connect: every page for Messenger, pages with a linked Instagram account for Instagram. */
export function connectablePages(pages: FacebookPage[], platform: SocialPlatform): FacebookPage[] {
  return platform === 'instagram' ? pages.filter((p) => p.instagram) : pages;
}

/**
 * Picks the Facebook page (Messenger) or the Instagram account (through its page) to connect.
 * Pages already connected to a company are listed but cannot be chosen.
 */
export function ConnectPageDialog(props: {
  open: boolean;
  platform: SocialPlatform;
  pages: FacebookPage[];
  pending: boolean;
  onConnect: (page: FacebookPage) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const [selected, setSelected] = useState<string>('');
  const pages = connectablePages(props.pages, props.platform);
  const instagram = props.platform === 'instagram';
  const icon = PLATFORM_ICONS[props.platform];
  // Messenger and Instagram are separate channels of one page: each has its own "connected".
  const taken = (page: FacebookPage) => (instagram ? !!page.instagram?.connected : page.connected);
  const chosen = pages.find((p) => p.id === selected && !taken(p));

  // the first free page is chosen each time the dialog opens with a new list
  const firstFree = pages.find((p) => !taken(p))?.id ?? '';
  useEffect(() => {
    if (props.open) setSelected(firstFree);
  }, [props.open, firstFree]);

  return (
    <Dialog open={props.open} onClose={props.pending ? undefined : props.onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{t(instagram ? 'channels.pages.titleInstagram' : 'channels.pages.titleMessenger')}</DialogTitle>
      <DialogContent>
        {pages.length === 0 ? (
          <Alert severity="info" variant="outlined">
            {t(instagram ? 'channels.pages.noneInstagram' : 'channels.pages.noneMessenger')}
          </Alert>
        ) : (
          <>
            <DialogContentText sx={{ mb: 1.5 }}>{t(instagram ? 'channels.pages.helpInstagram' : 'channels.pages.helpMessenger')}</DialogContentText>
            <RadioGroup aria-labelledby={titleId} value={selected} onChange={(_e, value) => setSelected(value)}>
              {pages.map((page) => (
                <FormControlLabel
                  key={page.id}
                  value={page.id}
                  disabled={taken(page) || props.pending}
                  control={<Radio />}
                  sx={{ mx: 0, py: 0.75, px: 1, borderRadius: 1, '&:hover': { bgcolor: 'action.hover' } }}
                  label={
                    <Stack direction="row" spacing={1.5} alignItems="center">
                      <Avatar variant="rounded" sx={{ bgcolor: icon.color, color: '#fff', width: 32, height: 32 }}>
                        <MdiIcon path={icon.path} fontSize="small" />
                      </Avatar>
                      <Box>
                        <Typography fontWeight={600}>{instagram ? `@${page.instagram!.username}` : page.name}</Typography>
                        {(instagram || taken(page)) && (
                          <Typography variant="body2" color="text.secondary">
                            {[instagram ? t('channels.pages.instagramOf', { page: page.name }) : null, taken(page) ? t('channels.pages.alreadyConnected') : null]
                              .filter(Boolean)
                              .join(' · ')}
                          </Typography>
                        )}
                      </Box>
                    </Stack>
                  }
                />
              ))}
            </RadioGroup>
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose} disabled={props.pending}>
          {t('channels.pages.cancel')}
        </Button>
        <Button
          variant="contained"
          disableElevation
          disabled={!chosen || props.pending}
          onClick={() => chosen && props.onConnect(chosen)}
          startIcon={props.pending ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
          sx={{ fontWeight: 600 }}
        >
          {t('channels.pages.connect')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
