import { useEffect, useState } from 'react';
import { Box, Button, Stack, Typography } from '@mui/material';
import { mdiArrowLeft, mdiConnection, mdiForumOutline, mdiForumRemoveOutline, mdiMessageTextOutline, mdiOpenInNew } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router-dom';
import { MdiIcon, featureFlagsApiRef, featureSatisfied, httpApiRef, useAccess, useAccount, useApi, useConsole } from '../../../core';

const CHANNELS_PATH = '/channels';

/** Whether the channels page is loaded, enabled and viewable by this user (else no link to it). */
function useCanOpenChannels(): boolean {
  const { routes } = useConsole();
  const flags = useApi(featureFlagsApiRef);
  const route = routes.find((r) => r.path === CHANNELS_PATH);
  const { canView } = useAccess(route?.area ?? 'channels');
  return !!route && featureSatisfied(flags, route.feature) && canView;
}

/** The company's customer simulator link (GET /api/sandbox/, chats view access): undefined while asked, null when refused. */
function useSimulatorUrl(): string | null | undefined {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const [url, setUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    if (companyId == null) return;
    let live = true;
    setUrl(undefined);
    http
      .get<{ simulator_url?: string }>('/api/sandbox/')
      .then((body) => live && setUrl(typeof body?.simulator_url === 'string' ? body.simulator_url : null))
      .catch(() => live && setUrl(null));
    return () => {
      live = false;
    };
  }, [http, companyId]);
  return url;
}

function Placeholder({ icon, title, children, testId }: { icon: string; title: string; children: React.ReactNode; testId: string }) {
  return (
    <Box data-testid={testId} sx={{ m: 'auto', maxWidth: 520, textAlign: 'center', px: 3, py: 6, color: 'text.secondary' }}>
      <MdiIcon path={icon} sx={{ fontSize: 64, opacity: 0.5 }} />
      <Typography variant="h6" component="h2" color="text.primary" sx={{ mt: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

/** Conversations exist but none is open: say how to open one. */
export function SelectConversation() {
  const { t } = useTranslation();
  return (
    <Placeholder testId="select-conversation" icon={mdiForumOutline} title={t('chats.room.select')}>
      <Typography variant="body2">{t('chats.empty.selectHint')}</Typography>
    </Placeholder>
  );
}

/**
 * A room's link the server refused (deleted, or not this member's to open): said, with the way back to the list,
 * which a phone does not show beside an open room.
 */
export function RoomUnavailable({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  return (
    <Placeholder testId="room-unavailable" icon={mdiForumRemoveOutline} title={t('chats.room.unavailable')}>
      <Typography variant="body2">{t('chats.room.unavailableHint')}</Typography>
      <Button sx={{ mt: 3 }} variant="outlined" startIcon={<MdiIcon path={mdiArrowLeft} />} onClick={onBack}>
        {t('chats.room.back')}
      </Button>
    </Placeholder>
  );
}

/**
 * The company has no conversation yet: the next steps, as far as this user can take them — connect a
 * channel (when they may open the channels page) or play a customer in the simulator (new tab).
 */
export function NoConversations() {
  const { t } = useTranslation();
  const canOpenChannels = useCanOpenChannels();
  const simulatorUrl = useSimulatorUrl();
  const noStep = !canOpenChannels && simulatorUrl === null;
  return (
    <Placeholder testId="no-conversations" icon={mdiMessageTextOutline} title={t('chats.empty.noneTitle')}>
      <Typography variant="body2">{t('chats.empty.noneHint')}</Typography>
      <Stack direction="row" useFlexGap sx={{ mt: 3, gap: 1.5, flexWrap: 'wrap', justifyContent: 'center', '& .MuiButton-root': { whiteSpace: 'nowrap' } }}>
        {canOpenChannels && (
          <Button component={RouterLink} to={CHANNELS_PATH} variant="contained" disableElevation startIcon={<MdiIcon path={mdiConnection} />}>
            {t('chats.empty.connectChannel')}
          </Button>
        )}
        {simulatorUrl && (
          <Button href={simulatorUrl} target="_blank" rel="noopener" variant="outlined" endIcon={<MdiIcon path={mdiOpenInNew} />}>
            {t('chats.empty.openSimulator')}
          </Button>
        )}
      </Stack>
      {simulatorUrl && (
        <Typography variant="body2" sx={{ mt: 1.5 }}>
          {t('chats.empty.simulatorHint')}
        </Typography>
      )}
      {noStep && (
        <Typography variant="body2" sx={{ mt: 1.5 }}>
          {t('chats.empty.askAdmin')}
        </Typography>
      )}
    </Placeholder>
  );
}
