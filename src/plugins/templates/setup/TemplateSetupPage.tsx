import { useState } from 'react';
import { Alert, Box, Button, Card, CardActionArea, CardContent, CircularProgress, Grid, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { mdiArrowLeft, mdiCellphoneMessage, mdiFormTextbox, mdiGestureTapButton, mdiImageOutline, mdiShieldKeyOutline, mdiViewCarouselOutline } from '@mdi/js';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { EmptyView, MdiIcon, useFeature } from '../../../core';
import { TEMPLATE_CATEGORIES, type TemplateCategory } from '../../../../contract/templates';
import { hasTemplateApi } from '../api';
import { channelLabel, useTemplateChannels } from '../list/TemplatesPage';
import { editorPath, typesFor, type TemplateType } from '../list/model';

const TYPE_ICONS: Record<TemplateType, string> = {
  text: mdiFormTextbox,
  media: mdiImageOutline,
  buttons: mdiGestureTapButton,
  authentication: mdiShieldKeyOutline,
  carousel: mdiViewCarouselOutline,
};

/** The kinds offered for a category: the carousel only when the whatsapp_carousel feature is on. */
export function offeredTypes(category: TemplateCategory, carouselEnabled: boolean): TemplateType[] {
  return typesFor(category).filter((type) => type !== 'carousel' || carouselEnabled);
}

/**
 * /templates/template-setup: choose the WhatsApp number, then the category and the kind (cards
 * that explain each), leading to the editor (/templates/create-whatsapp-template/{category}/{type})
 * or the carousel builder (/templates/create-whatsapp-carousel).
 */
export default function TemplateSetupPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const channels = useTemplateChannels();
  const carouselEnabled = useFeature('whatsapp_carousel');
  const whatsapp = (channels.data ?? []).filter(hasTemplateApi);
  const [picked, setPicked] = useState<string | null>(search.get('channel'));
  const channel = whatsapp.find((c) => String(c.id) === picked) ?? whatsapp[0] ?? null;
  const [category, setCategory] = useState<TemplateCategory>('MARKETING');

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1100 }}>
      <Button component={RouterLink} to="/templates" startIcon={<MdiIcon path={mdiArrowLeft} />} sx={{ mb: 1 }}>
        {t('templates.setup.back')}
      </Button>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('templates.setup.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        {t('templates.setup.subtitle')}
      </Typography>

      {channels.isPending && <CircularProgress aria-label={t('templates.setup.title')} />}
      {channels.isError && <Alert severity="error">{t('templates.loadError')}</Alert>}
      {channels.isSuccess && !channel && (
        <Box>
          <EmptyView />
          <Stack alignItems="center" spacing={1}>
            <Typography color="text.secondary">{t('templates.noChannels')}</Typography>
            <Button component={RouterLink} to="/channels" variant="outlined">
              {t('templates.connectChannel')}
            </Button>
          </Stack>
        </Box>
      )}

      {channel && (
        <Stack spacing={4}>
          <Box component="section" aria-labelledby="setup-channel">
            <Typography id="setup-channel" variant="h6" component="h2" gutterBottom>
              1. {t('templates.setup.step.channel')}
            </Typography>
            <TextField
              select
              size="small"
              label={t('templates.setup.step.channel')}
              value={String(channel.id)}
              onChange={(e) => setPicked(e.target.value)}
              helperText={t('templates.setup.channelHelp')}
              fullWidth={false}
              sx={{ minWidth: 320, maxWidth: 520 }}
            >
              {whatsapp.map((c) => (
                <MenuItem key={c.id} value={String(c.id)}>
                  {channelLabel(c)}
                </MenuItem>
              ))}
            </TextField>
          </Box>

          <Box component="section" aria-labelledby="setup-category">
            <Typography id="setup-category" variant="h6" component="h2">
              2. {t('templates.setup.step.category')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              {t('templates.setup.categoryHelp')}
            </Typography>
            <Grid container spacing={2} role="radiogroup" aria-labelledby="setup-category">
              {TEMPLATE_CATEGORIES.map((c) => {
                const selected = c === category;
                return (
                  <Grid key={c} size={{ xs: 12, md: 4 }}>
                    <Card variant="outlined" sx={{ height: '100%', borderColor: selected ? 'primary.main' : 'divider', borderWidth: selected ? 2 : 1 }}>
                      <CardActionArea role="radio" aria-checked={selected} onClick={() => setCategory(c)} sx={{ height: '100%' }} data-testid={`setup-category-${c}`}>
                        <CardContent>
                          <Typography variant="subtitle1" fontWeight={700}>
                            {t(`templates.category.${c}`)}
                          </Typography>
                          <Typography variant="body2" color="text.secondary">
                            {t(`templates.setup.categories.${c}`)}
                          </Typography>
                        </CardContent>
                      </CardActionArea>
                    </Card>
                  </Grid>
                );
              })}
            </Grid>
          </Box>

          <Box component="section" aria-labelledby="setup-type">
            <Typography id="setup-type" variant="h6" component="h2">
              3. {t('templates.setup.step.type')}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
              {t('templates.setup.typeHelp')}
            </Typography>
            <Grid container spacing={2}>
              {offeredTypes(category, carouselEnabled).map((type) => (
                <Grid key={type} size={{ xs: 12, sm: 6, md: 4 }}>
                  <Card variant="outlined" sx={{ height: '100%' }}>
                    <CardActionArea component={RouterLink} to={editorPath(category, type, { channel: channel.id })} sx={{ height: '100%' }} data-testid={`setup-type-${type}`}>
                      <CardContent>
                        <Stack direction="row" spacing={1} alignItems="center" sx={{ mb: 0.5 }}>
                          <MdiIcon path={TYPE_ICONS[type] ?? mdiCellphoneMessage} color="primary" />
                          <Typography variant="subtitle1" component="h3" fontWeight={700}>
                            {t(`templates.setup.types.${type}.title`)}
                          </Typography>
                        </Stack>
                        <Typography variant="body2" color="text.secondary">
                          {t(`templates.setup.types.${type}.description`)}
                        </Typography>
                      </CardContent>
                    </CardActionArea>
                  </Card>
                </Grid>
              ))}
            </Grid>
            {category === 'MARKETING' && !carouselEnabled && (
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                {t('templates.setup.carouselDisabled')}
              </Typography>
            )}
          </Box>
        </Stack>
      )}
    </Box>
  );
}
