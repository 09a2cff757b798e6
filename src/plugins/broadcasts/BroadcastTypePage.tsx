import { Box, Card, CardActionArea, CardContent, Grid, Link, Stack, Typography } from '@mui/material';
import { mdiAccountMultipleOutline, mdiFileDelimitedOutline } from '@mdi/js';
import { Link as RouterLink } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../core';
import { BROADCAST_TYPES } from './model/draft';

const ICONS = { contacts: mdiAccountMultipleOutline, csv: mdiFileDelimitedOutline } as const;

/** /broadcast/broadcast-type: to the existing contacts of a channel, or to an uploaded CSV list. */
export default function BroadcastTypePage() {
  const { t } = useTranslation();
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Link component={RouterLink} to="/broadcast" underline="hover" variant="body2">
        {t('broadcasts.backToList')}
      </Link>
      <Typography variant="h4" component="h1" fontWeight={700} sx={{ mt: 1 }}>
        {t('broadcasts.type.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('broadcasts.type.subtitle')}
      </Typography>
      <Grid container spacing={2} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {BROADCAST_TYPES.map((type) => (
          <Grid key={type} size={{ xs: 12, md: 6 }} component="li">
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={`/broadcast/create-broadcast/${type}`} sx={{ height: '100%' }}>
                <CardContent>
                  <Stack direction="row" spacing={2} alignItems="flex-start">
                    <MdiIcon path={ICONS[type]} sx={{ fontSize: 40, color: 'primary.main' }} />
                    <Box>
                      <Typography variant="h6" component="h2" fontWeight={700}>
                        {t(`broadcasts.type.${type}.title`)}
                      </Typography>
                      <Typography variant="body2" color="text.secondary">
                        {t(`broadcasts.type.${type}.description`)}
                      </Typography>
                    </Box>
                  </Stack>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Box>
  );
}
