import { Avatar, Stack, Typography } from '@mui/material';
import { mdiMessageTextOutline } from './icons';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../core';

/** The product's mark and name, shown above the auth cards. */
export function ProductMark() {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1.5} alignItems="center" justifyContent="center" sx={{ mb: 3 }}>
      <Avatar variant="rounded" sx={{ bgcolor: 'primary.main', width: 40, height: 40, borderRadius: 2 }}>
        <MdiIcon path={mdiMessageTextOutline} />
      </Avatar>
      <Typography variant="h6" component="span" fontWeight={700} letterSpacing={-0.2}>
        {t('pages.productName')}
      </Typography>
    </Stack>
  );
}
