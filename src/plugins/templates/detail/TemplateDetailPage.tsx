import { useCallback, useEffect } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, Grid, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { mdiArrowLeft, mdiContentCopy, mdiPencilOutline } from '@mdi/js';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { formatDate, isHttpError, MdiIcon, useAccess, useAccount, useApi } from '../../../core';
import type { TemplateButton, TemplateComponent, TemplateStats, WhatsAppTemplate } from '../../../../contract/templates';
import { templatesApiRef } from '../api';
import { duplicatePath, editorPath, templateType } from '../list/model';

/** Meta edits approved, rejected and paused templates only. */
export const EDITABLE_STATUSES = ['APPROVED', 'REJECTED', 'PAUSED'];
import { QualityChip, StatusChip, useReasonText } from '../list/TemplateChips';
import { DeleteTemplateButton, channelLabel, useTemplateChannels } from '../list/TemplatesPage';
import { useTemplateEvents } from '../list/useTemplateEvents';

export const STAT_KEYS = ['sent', 'delivered', 'read', 'replied', 'failed'] as const satisfies readonly (keyof TemplateStats)[];

/** Share of sent messages, as a whole percentage ('' when nothing was sent). */
export function rate(value: number, sent: number): string {
  return sent > 0 ? `${Math.round((value / sent) * 100)}%` : '';
}

function ButtonChips({ buttons }: { buttons: TemplateButton[] }) {
  const { t } = useTranslation();
  return (
    <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {buttons.map((b, i) => {
        const text = 'text' in b && b.text ? b.text : b.type === 'COPY_CODE' ? b.example : t(`templates.detail.button.${b.type}`);
        const detail = b.type === 'URL' ? b.url : b.type === 'PHONE_NUMBER' ? b.phone_number : null;
        return (
          <Chip
            key={i}
            variant="outlined"
            label={`${text} · ${t(`templates.detail.button.${b.type}`)}`}
            title={detail ?? undefined}
            data-testid="template-button"
          />
        );
      })}
    </Stack>
  );
}

/** A template's components as sections (header, body, footer, buttons, carousel cards). */
export function TemplateComponents({ components, category }: { components: TemplateComponent[]; category: string }) {
  const { t } = useTranslation();
  return (
    <Stack spacing={2}>
      {components.map((component, index) => {
        switch (component.type) {
          case 'HEADER':
            return (
              <Box key={index}>
                <Typography variant="overline" component="h3">
                  {t('templates.detail.header')}
                </Typography>
                {component.format === 'TEXT' ? (
                  <Typography fontWeight={700}>{component.text}</Typography>
                ) : (
                  <Chip label={t('templates.detail.media', { format: component.format })} />
                )}
              </Box>
            );
          case 'BODY':
            return (
              <Box key={index}>
                <Typography variant="overline" component="h3">
                  {t('templates.detail.body')}
                </Typography>
                <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="template-body">
                  {component.text ?? (category === 'AUTHENTICATION' ? t('templates.detail.authBody') : '')}
                </Typography>
                {component.add_security_recommendation && (
                  <Typography variant="body2" color="text.secondary">
                    {t('templates.detail.securityRecommendation')}
                  </Typography>
                )}
              </Box>
            );
          case 'FOOTER':
            return (
              <Box key={index}>
                <Typography variant="overline" component="h3">
                  {t('templates.detail.footer')}
                </Typography>
                <Typography variant="body2" color="text.secondary">
                  {component.text ?? (component.code_expiration_minutes ? t('templates.detail.codeExpiry', { minutes: component.code_expiration_minutes }) : '')}
                </Typography>
              </Box>
            );
          case 'BUTTONS':
            return (
              <Box key={index}>
                <Typography variant="overline" component="h3">
                  {t('templates.detail.buttons')}
                </Typography>
                <ButtonChips buttons={component.buttons} />
              </Box>
            );
          case 'CAROUSEL':
            return (
              <Box key={index}>
                <Typography variant="overline" component="h3">
                  {t('templates.detail.cards')}
                </Typography>
                <Stack
                  direction="row"
                  spacing={2}
                  tabIndex={0}
                  role="region"
                  aria-label={t('templates.detail.cards')}
                  sx={{ overflowX: 'auto', pb: 1, '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
                  data-testid="template-cards"
                >
                  {component.cards.map((card, n) => (
                    <Paper key={n} variant="outlined" sx={{ p: 1.5, minWidth: 220, maxWidth: 260, flexShrink: 0 }} data-testid="template-card">
                      <Typography variant="subtitle2" component="h4" gutterBottom>
                        {t('templates.detail.card', { n: n + 1 })}
                      </Typography>
                      <TemplateComponents components={card.components as TemplateComponent[]} category={category} />
                    </Paper>
                  ))}
                </Stack>
              </Box>
            );
          default:
            return null;
        }
      })}
    </Stack>
  );
}

/**
 * /templates/{channelId}/{templateId}: a template's content, its review status (live), the history
 * of its status changes and the stats of the messages sent with it.
 */
export default function TemplateDetailPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const channelId = Number(params.channelId);
  const templateId = Number(params.templateId);
  const api = useApi(templatesApiRef);
  const { companyId } = useAccount();
  const { canManage } = useAccess('whatsapp_templates');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reasonText = useReasonText();
  const channels = useTemplateChannels();
  const channel = channels.data?.find((c) => c.id === channelId);

  const key = ['templates', 'detail', companyId, channelId, templateId];
  const template = useQuery({ queryKey: [...key, 'template'], queryFn: ({ signal }) => api.get(channelId, templateId, signal), retry: false, enabled: channelId > 0 && templateId > 0 });
  const history = useQuery({ queryKey: [...key, 'history'], queryFn: ({ signal }) => api.history(channelId, templateId, signal), retry: false, enabled: !!template.data });
  const stats = useQuery({ queryKey: [...key, 'stats'], queryFn: ({ signal }) => api.stats(channelId, templateId, signal), retry: false, enabled: !!template.data });

  const onChange = useCallback(
    (changed: WhatsAppTemplate) => {
      if (changed.id !== templateId) return;
      queryClient.setQueryData([...key, 'template'], changed.status === 'DELETED' ? null : changed);
      // A read under way may have been answered before this change and would undo it (TemplatesPage): read again.
      if (queryClient.isFetching({ queryKey: [...key, 'template'] }) > 0) void queryClient.invalidateQueries({ queryKey: [...key, 'template'] });
      void queryClient.invalidateQueries({ queryKey: [...key, 'history'] });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is derived from these
    [queryClient, companyId, channelId, templateId],
  );
  const joins = useTemplateEvents(channelId > 0 ? channelId : null, onChange);
  // After each join of the live topic, what it may have missed is read again (see useTemplateEvents).
  useEffect(
    () => {
      if (joins > 0) void queryClient.invalidateQueries({ queryKey: key });
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps -- key is derived from these
    [joins, queryClient, companyId, channelId, templateId],
  );

  const back = (
    <Button component={RouterLink} to={`/templates?channel=${channelId}`} startIcon={<MdiIcon path={mdiArrowLeft} />} sx={{ mb: 1 }}>
      {t('templates.detail.back')}
    </Button>
  );

  if (template.isPending && template.fetchStatus !== 'idle') {
    return (
      <Box sx={{ p: 3 }}>
        {back}
        <Box sx={{ textAlign: 'center', py: 6 }}>
          <CircularProgress aria-label={t('templates.title')} />
        </Box>
      </Box>
    );
  }
  const data = template.data;
  if (!data) {
    // A 404 (a template or channel that is not this company's, or no longer there) is the same answer as an empty one.
    const failed = template.isError && !(isHttpError(template.error) && template.error.status === 404);
    return (
      <Box sx={{ p: 3 }}>
        {back}
        <Typography variant="h4" component="h1" fontWeight={700} gutterBottom>
          {t('templates.title')}
        </Typography>
        <Alert severity={failed ? 'error' : 'info'} data-testid="template-not-found">
          {failed ? t('templates.loadError') : t('templates.detail.notFound')}
        </Alert>
      </Box>
    );
  }

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1200 }}>
      {back}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} justifyContent="space-between" alignItems={{ md: 'flex-start' }} sx={{ mb: 3 }}>
        <Box>
          <Typography variant="h4" component="h1" fontWeight={700} sx={{ fontFamily: 'monospace', overflowWrap: 'anywhere' }}>
            {data.name}
          </Typography>
          <Typography color="text.secondary">
            {t('templates.detail.meta', {
              category: t(`templates.category.${data.category}`, { defaultValue: data.category }),
              language: data.language,
              channel: channel ? channelLabel(channel) : `#${channelId}`,
            })}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ mt: 1 }} alignItems="flex-start">
            <StatusChip template={data} />
            <QualityChip score={data.quality_score} />
          </Stack>
        </Box>
        {canManage && (
          <Stack direction="row" spacing={1} flexShrink={0}>
            {EDITABLE_STATUSES.includes(data.status) && (
              <Button
                variant="outlined"
                startIcon={<MdiIcon path={mdiPencilOutline} />}
                onClick={() => navigate(editorPath(data.category, templateType(data), { channel: data.channel_id, template: data.id }))}
              >
                {t('templates.detail.edit')}
              </Button>
            )}
            <Button variant="outlined" startIcon={<MdiIcon path={mdiContentCopy} />} onClick={() => navigate(duplicatePath(data))}>
              {t('templates.detail.duplicate')}
            </Button>
            <DeleteTemplateButton template={data} variant="button" onDeleted={() => navigate(`/templates?channel=${channelId}`)} />
          </Stack>
        )}
      </Stack>

      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Card variant="outlined">
            <CardContent>
              <Typography variant="h6" component="h2" gutterBottom>
                {t('templates.detail.components')}
              </Typography>
              <TemplateComponents components={data.components} category={data.category} />
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={2}>
            <Card variant="outlined" component="section" aria-labelledby="template-stats">
              <CardContent>
                <Typography id="template-stats" variant="h6" component="h2">
                  {t('templates.detail.stats')}
                </Typography>
                <Typography variant="body2" color="text.secondary" gutterBottom>
                  {t('templates.detail.statsHelp')}
                </Typography>
                {stats.isError && <Alert severity="error">{t('templates.detail.statsError')}</Alert>}
                {stats.isPending && <CircularProgress size={24} aria-label={t('templates.detail.stats')} />}
                {stats.data && (
                  <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(90px, 1fr))', gap: 1.5, m: 0 }} data-testid="template-stats">
                    {STAT_KEYS.map((k) => (
                      <Box key={k} sx={{ m: 0 }}>
                        <Typography component="dt" variant="caption" color="text.secondary">
                          {t(`templates.detail.stat.${k}`)}
                        </Typography>
                        <Typography component="dd" variant="h5" fontWeight={700} sx={{ m: 0 }} data-stat={k}>
                          {stats.data[k].toLocaleString(i18n.language)}
                          {k !== 'sent' && rate(stats.data[k], stats.data.sent) && (
                            <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 0.5 }}>
                              {rate(stats.data[k], stats.data.sent)}
                            </Typography>
                          )}
                        </Typography>
                      </Box>
                    ))}
                  </Box>
                )}
              </CardContent>
            </Card>
            <Card variant="outlined" component="section" aria-labelledby="template-history">
              <CardContent>
                <Typography id="template-history" variant="h6" component="h2">
                  {t('templates.detail.history')}
                </Typography>
                {history.data && history.data.length === 0 && (
                  <Typography variant="body2" color="text.secondary">
                    {t('templates.detail.noHistory')}
                  </Typography>
                )}
                {history.data && history.data.length > 0 && (
                  <List dense data-testid="template-history">
                    {[...history.data].reverse().map((change, i) => (
                      <ListItem key={`${change.at}-${i}`} disableGutters>
                        <ListItemText
                          primary={t(`templates.status.${change.status}`, { defaultValue: change.status })}
                          secondary={[
                            formatDate(change.at, i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }),
                            change.reason && change.reason !== 'NONE' ? t('templates.reason', { reason: reasonText(change.reason) }) : null,
                          ]
                            .filter(Boolean)
                            .join(' · ')}
                        />
                      </ListItem>
                    ))}
                  </List>
                )}
              </CardContent>
            </Card>
          </Stack>
        </Grid>
      </Grid>
    </Box>
  );
}
