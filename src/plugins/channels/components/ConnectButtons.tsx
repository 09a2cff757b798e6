import { Button, CircularProgress, Stack } from '@mui/material';
import { mdiFacebookMessenger, mdiInstagram, mdiWhatsapp } from '@mdi/js';
import { useNavigate } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';
import type { SocialPlatform } from '../hooks';

/** The WhatsApp embedded signup (another part of this plugin). */
export const WHATSAPP_INTEGRATION_PATH = '/whatsapp-integration';

/** "Connect WhatsApp", "Connect Facebook page", "Connect Instagram account". */
export function ConnectButtons(props: {
  starting: SocialPlatform | null;
  onConnect: (platform: SocialPlatform) => void;
  /** Only the WhatsApp and Facebook page buttons (the banner). */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const busy = props.starting !== null;
  const social = (platform: SocialPlatform, icon: string) => (
    <Button
      variant="outlined"
      onClick={() => props.onConnect(platform)}
      disabled={busy}
      startIcon={props.starting === platform ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={icon} />}
      sx={{ fontWeight: 600 }}
    >
      {t(`channels.connect.${platform}`)}
    </Button>
  );
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
      <Button
        variant="contained"
        disableElevation
        onClick={() => navigate(WHATSAPP_INTEGRATION_PATH)}
        startIcon={<MdiIcon path={mdiWhatsapp} sx={{ color: 'whatsapp.main' }} />}
        sx={{ fontWeight: 600 }}
      >
        {t('channels.connect.whatsapp')}
      </Button>
      {social('messenger', mdiFacebookMessenger)}
      {!props.compact && social('instagram', mdiInstagram)}
    </Stack>
  );
}
