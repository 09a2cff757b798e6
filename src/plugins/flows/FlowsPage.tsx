import { Box, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

export default function FlowsPage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: 3 }}>
      <Typography variant="h5" component="h1">{t('flows.title')}</Typography>
    </Box>
  );
}
