import { Box, Typography } from '@mui/material';
import SvgIcon from '@mui/material/SvgIcon';
import { mdiInboxRemoveOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';

/** Spec §2 empty-data view: "Nothing Found. There's no data at the moment, please check back in later." */
export function EmptyView({ title, message }: { title?: string; message?: string }) {
  const { t } = useTranslation();
  return (
    <Box data-testid="empty-view" sx={{ textAlign: 'center', py: 6, px: 2, color: 'text.secondary' }}>
      <SvgIcon sx={{ fontSize: 64, opacity: 0.5 }}>
        <path d={mdiInboxRemoveOutline} />
      </SvgIcon>
      <Typography variant="h6" component="p" sx={{ mt: 1 }}>
        {title ?? t('core.empty.title')}
      </Typography>
      <Typography variant="body2">{message ?? t('core.empty.message')}</Typography>
    </Box>
  );
}
