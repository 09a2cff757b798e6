import { Box, Typography } from '@mui/material';
import SvgIcon from '@mui/material/SvgIcon';
import { useTranslation } from 'react-i18next';

/** @mdi/js's mdiInboxRemoveOutline, inlined: this view is in the sign-in pages' chunk (guards), and importing
 * '@mdi/js' brought the one module with every icon the console uses (~28 KB minified) along. */
const mdiInboxRemoveOutline =
  'M19 3H5C3.9 3 3 3.9 3 5V19C3 20.1 3.9 21 5 21H19C20.1 21 21 20.1 21 19V5C21 3.9 20.1 3 19 3M5 19V17H8.1C8.3 17.8 8.8 18.5 9.4 19M19 19H14.6C15.2 18.5 15.7 17.8 15.9 17H19M19 15H14V16C14 17.1 13.1 18 12 18S10 17.1 10 16V15H5V5H19V15M14.1 6.5L15.5 7.9L13.4 10L15.5 12.1L14.1 13.5L12 11.4L9.9 13.5L8.5 12.1L10.6 10L8.5 7.9L9.9 6.5L12 8.6L14.1 6.5Z';

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
