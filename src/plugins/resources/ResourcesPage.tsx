import { useMemo, useState, type ReactNode } from 'react';
import { Accordion, AccordionDetails, AccordionSummary, Alert, Box, Button, Chip, CircularProgress, IconButton, InputAdornment, Link, Paper, Stack, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, TextField, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material';
import { mdiChevronDown, mdiClose, mdiContentCopy, mdiDownload, mdiEye, mdiEyeOff, mdiMagnify, mdiOpenInNew } from '@mdi/js';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { ConsoleTooltip, EmptyView, httpApiRef, MdiIcon, useAccount, useAlert, useApi, visuallyHidden } from '../../core';
import { HELP_AREAS } from './articles';
import {
  apiBaseUrl,
  botServiceUrl,
  fetchOptOuts,
  metaWebhookUrl,
  openApiUrl,
  optOutCsvText,
  saveFile,
  useConfig,
  useIntegration,
  useOpenApiDocument,
  type OpenApiKind,
} from './api';
import { filterOperations, openApiView, type OperationView } from './openapiView';
import { createHelpIndex, helpArticles, type HelpArticle } from './search';

const TABS = ['help', 'integration', 'reference', 'downloads'] as const;
type TabId = (typeof TABS)[number];

const origin = () => window.location.origin;

/** /resources: searchable help per area, the integration reference, the API reference and downloads. */
export default function ResourcesPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: TabId = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as TabId) : 'help';
  const select = (next: TabId) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        if (next === 'help') out.delete('tab');
        else out.set('tab', next);
        return out;
      },
      { replace: true },
    );

  return (
    <Box sx={{ p: { xs: 2, md: 3 }, maxWidth: 1200 }}>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('resources.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('resources.subtitle')}
      </Typography>
      <Tabs value={tab} onChange={(_e, value: TabId) => select(value)} aria-label={t('resources.tabs.label')} variant="scrollable" allowScrollButtonsMobile sx={{ mb: 3, borderBottom: 1, borderColor: 'divider' }}>
        {TABS.map((id) => (
          <Tab key={id} value={id} label={t(`resources.tabs.${id}`)} id={`resources-tab-${id}`} aria-controls={`resources-panel-${id}`} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`resources-panel-${tab}`} aria-labelledby={`resources-tab-${tab}`}>
        {tab === 'help' && <HelpSection />}
        {tab === 'integration' && <IntegrationSection />}
        {tab === 'reference' && <ReferenceSection />}
        {tab === 'downloads' && <DownloadsSection />}
      </Box>
    </Box>
  );
}

// ---------- help ----------

function ArticleBody({ body }: { body: string }) {
  const blocks = body.split(/\n\n+/);
  return (
    <>
      {blocks.map((block, i) => {
        const lines = block.split('\n');
        if (lines.every((l) => l.startsWith('- '))) {
          return (
            <Box component="ol" key={i} sx={{ pl: 3, my: 1 }}>
              {lines.map((l, j) => (
                <Typography component="li" key={j} variant="body2" sx={{ mb: 0.5 }}>
                  {l.slice(2)}
                </Typography>
              ))}
            </Box>
          );
        }
        return (
          <Typography key={i} variant="body2" sx={{ my: 1 }}>
            {block}
          </Typography>
        );
      })}
    </>
  );
}

function ArticleItem({ article, showArea }: { article: HelpArticle; showArea: boolean }) {
  const { t } = useTranslation();
  const path = HELP_AREAS.find((a) => a.id === article.area)?.path ?? '/';
  return (
    <Accordion disableGutters variant="outlined" data-testid={`help-article-${article.id}`} slotProps={{ transition: { unmountOnExit: true } }}>
      <AccordionSummary expandIcon={<MdiIcon path={mdiChevronDown} />} aria-controls={`help-${article.id}-content`} id={`help-${article.id}-header`}>
        <Box component="span" sx={{ display: 'block' }}>
          <Typography component="span" variant="subtitle1" fontWeight={600} sx={{ display: 'block' }} data-testid="help-article-title">
            {article.title}
          </Typography>
          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
            {showArea ? `${article.areaLabel} · ` : ''}
            {article.summary}
          </Typography>
        </Box>
      </AccordionSummary>
      <AccordionDetails>
        <ArticleBody body={article.body} />
        <Button component={RouterLink} to={path} size="small" sx={{ mt: 1 }}>
          {t('resources.article.open', { area: article.areaLabel })}
        </Button>
      </AccordionDetails>
    </Accordion>
  );
}

function HelpSection() {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  // One index per language: rebuilt when the language changes.
  const index = useMemo(() => createHelpIndex(helpArticles((key) => t(key))), [t, i18n.language]); // eslint-disable-line react-hooks/exhaustive-deps -- i18n.language: `t` alone may stay the same object across a language change
  const results = useMemo(() => index.search(query), [index, query]);
  const searching = query.trim().length > 0;

  return (
    <Box>
      <TextField
        fullWidth
        type="search"
        label={t('resources.search.label')}
        placeholder={t('resources.search.placeholder')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <MdiIcon path={mdiMagnify} />
              </InputAdornment>
            ),
            endAdornment: searching ? (
              <InputAdornment position="end">
                <IconButton aria-label={t('resources.search.clear')} onClick={() => setQuery('')} edge="end" size="small">
                  <MdiIcon path={mdiClose} />
                </IconButton>
              </InputAdornment>
            ) : undefined,
          },
        }}
        sx={{ mb: 1 }}
      />
      <Typography variant="body2" color="text.secondary" role="status" aria-live="polite" sx={{ mb: 2 }} data-testid="help-count">
        {t('resources.search.count', { count: results.length })}
      </Typography>
      {results.length === 0 ? (
        <EmptyView />
      ) : searching ? (
        <Stack spacing={1} data-testid="help-results">
          {results.map((a) => (
            <ArticleItem key={a.id} article={a} showArea />
          ))}
        </Stack>
      ) : (
        <Stack spacing={3} data-testid="help-results">
          {HELP_AREAS.map((area) => (
            <Box key={area.id} component="section" aria-labelledby={`help-area-${area.id}`}>
              <Typography id={`help-area-${area.id}`} component="h2" variant="h6" sx={{ mb: 1 }}>
                {t(`resources.help.areas.${area.id}`)}
              </Typography>
              <Stack spacing={1}>
                {results
                  .filter((a) => a.area === area.id)
                  .map((a) => (
                    <ArticleItem key={a.id} article={a} showArea={false} />
                  ))}
              </Stack>
            </Box>
          ))}
        </Stack>
      )}
    </Box>
  );
}

// ---------- integration ----------

function CopyButton({ value, what }: { value: string; what: string }) {
  const { t } = useTranslation();
  const alert = useAlert();
  const label = t('resources.integration.copy', { what });
  return (
    <ConsoleTooltip title={label}>
      <IconButton
        aria-label={label}
        size="small"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => alert.success(t('resources.integration.copied')),
            () => undefined,
          );
        }}
      >
        <MdiIcon path={mdiContentCopy} />
      </IconButton>
    </ConsoleTooltip>
  );
}

function Item({ label, value, help, testId, actions }: { label: string; value: ReactNode; help?: string; testId: string; actions?: ReactNode }) {
  return (
    <Box component="div" sx={{ py: 1.5, borderBottom: 1, borderColor: 'divider' }}>
      <Typography component="dt" variant="subtitle2">
        {label}
      </Typography>
      <Box component="dd" sx={{ m: 0 }}>
        <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography component="code" data-testid={testId} sx={{ fontFamily: 'monospace', fontSize: 14, wordBreak: 'break-all' }}>
            {value}
          </Typography>
          {actions}
        </Box>
        {help && (
          <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block' }}>
            {help}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

function IntegrationSection() {
  const { t } = useTranslation();
  const config = useConfig();
  const { companyId } = useAccount();
  const integration = useIntegration();
  const [showKey, setShowKey] = useState(false);
  const apiBase = apiBaseUrl(config, origin());
  const botService = botServiceUrl(integration.data, config, origin());
  const key = integration.data?.access_key ?? null;

  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography component="h2" variant="h6">
          {t('resources.integration.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('resources.integration.intro')}
        </Typography>
        <Box component="dl" sx={{ m: 0 }}>
          <Item label={t('resources.integration.apiBase')} value={apiBase} help={t('resources.integration.apiAuth')} testId="integration-api-base" actions={<CopyButton value={apiBase} what={t('resources.integration.apiBase')} />} />
          {companyId !== null && <Item label={t('resources.integration.companyId')} value={`Company: ${companyId}`} testId="integration-company" />}
          <Item label={t('resources.integration.webhookUrl')} value={metaWebhookUrl(apiBase)} help={t('resources.integration.webhookHelp')} testId="integration-webhook" actions={<CopyButton value={metaWebhookUrl(apiBase)} what={t('resources.integration.webhookUrl')} />} />
          <Item label={t('resources.integration.botEndpoint')} value={integration.isPending ? '…' : botService} testId="integration-bot-endpoint" actions={<CopyButton value={botService} what={t('resources.integration.botEndpoint')} />} />
        </Box>
        {integration.isPending ? (
          <Stack direction="row" spacing={1} alignItems="center" sx={{ mt: 2 }} role="status">
            <CircularProgress size={18} aria-hidden />
            <Typography variant="body2">{t('resources.integration.loading')}</Typography>
          </Stack>
        ) : integration.isError ? (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {t('resources.integration.loadFailed')}
          </Alert>
        ) : key ? (
          <Box component="dl" sx={{ m: 0 }}>
            <Item
              label={t('resources.integration.accessKey')}
              value={showKey ? key : '•'.repeat(Math.min(32, key.length))}
              help={t('resources.integration.accessKeyHelp')}
              testId="integration-access-key"
              actions={
                <>
                  <ConsoleTooltip title={showKey ? t('resources.integration.hideKey') : t('resources.integration.showKey')}>
                    <IconButton aria-label={showKey ? t('resources.integration.hideKey') : t('resources.integration.showKey')} size="small" onClick={() => setShowKey((v) => !v)}>
                      <MdiIcon path={showKey ? mdiEyeOff : mdiEye} />
                    </IconButton>
                  </ConsoleTooltip>
                  <CopyButton value={key} what={t('resources.integration.accessKey')} />
                </>
              }
            />
          </Box>
        ) : (
          <Alert severity="info" sx={{ mt: 2 }} data-testid="integration-key-admins-only">
            {t('resources.integration.accessKeyAdminsOnly')}
          </Alert>
        )}
      </Paper>

      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography component="h2" variant="h6">
          {t('resources.integration.openApi')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {t('resources.integration.openApiIntro')}
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <OpenApiLink href={openApiUrl('api', apiBase, botService)} label={t('resources.integration.openApiApi')} />
          <OpenApiLink href={openApiUrl('botService', apiBase, botService)} label={t('resources.integration.openApiBot')} />
        </Stack>
      </Paper>
    </Stack>
  );
}

function OpenApiLink({ href, label }: { href: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {label}
      <MdiIcon path={mdiOpenInNew} fontSize="small" aria-hidden />
      <Box component="span" sx={visuallyHidden}>
        {t('resources.integration.newTab')}
      </Box>
    </Link>
  );
}


// ---------- API reference ----------

const METHOD_COLORS: Record<string, 'success' | 'primary' | 'warning' | 'secondary' | 'error'> = {
  GET: 'success',
  POST: 'primary',
  PUT: 'warning',
  PATCH: 'secondary',
  DELETE: 'error',
};

function OperationItem({ op }: { op: OperationView }) {
  const { t } = useTranslation();
  return (
    <Accordion disableGutters variant="outlined" slotProps={{ transition: { unmountOnExit: true } }} data-testid={`operation-${op.method}-${op.path}`}>
      <AccordionSummary expandIcon={<MdiIcon path={mdiChevronDown} />} aria-controls={`op-${op.id}-content`} id={`op-${op.id}-header`}>
        <Stack direction="row" spacing={1} alignItems="center" sx={{ flexWrap: 'wrap', minWidth: 0 }}>
          <Chip label={op.method} color={METHOD_COLORS[op.method] ?? 'default'} size="small" sx={{ fontWeight: 700, minWidth: 64 }} />
          <Typography component="span" sx={{ fontFamily: 'monospace', fontSize: 14, wordBreak: 'break-all' }}>
            {op.path}
          </Typography>
          <Chip label={t(`resources.reference.auth.${op.auth}`)} size="small" variant="outlined" />
        </Stack>
      </AccordionSummary>
      <AccordionDetails>
        {op.description && (
          <Typography variant="body2" sx={{ mb: 1 }}>
            {op.description}
          </Typography>
        )}
        {op.access && (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t('resources.reference.access', { rule: op.access })}
          </Typography>
        )}
        {op.fields.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('resources.reference.noFields')}
          </Typography>
        ) : (
          <TableContainer>
            <Table size="small" aria-label={`${op.method} ${op.path}`}>
              <TableHead>
                <TableRow>
                  {(['name', 'in', 'type', 'required', 'notes'] as const).map((c) => (
                    <TableCell key={c}>{t(`resources.reference.fields.${c}`)}</TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {op.fields.map((f) => (
                  <TableRow key={`${f.in}-${f.name}`}>
                    <TableCell sx={{ fontFamily: 'monospace' }}>{f.name}</TableCell>
                    <TableCell>{f.in}</TableCell>
                    <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-word' }}>{f.type}</TableCell>
                    <TableCell>{f.required ? t('resources.reference.requiredYes') : t('resources.reference.requiredNo')}</TableCell>
                    <TableCell>{f.notes.join(', ')}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </AccordionDetails>
    </Accordion>
  );
}

function ReferenceSection() {
  const { t } = useTranslation();
  const config = useConfig();
  const integration = useIntegration();
  const [kind, setKind] = useState<OpenApiKind>('api');
  const [filter, setFilter] = useState('');
  const apiBase = apiBaseUrl(config, origin());
  const botService = botServiceUrl(integration.data, config, origin());
  // The bot service's endpoint comes from the integration: wait for it (or its failure) before asking.
  const url = kind === 'api' ? openApiUrl('api', apiBase, botService) : integration.isPending ? null : openApiUrl('botService', apiBase, botService);
  const doc = useOpenApiDocument(kind, url);
  const view = useMemo(() => (doc.data ? openApiView(doc.data) : null), [doc.data]);
  const groups = useMemo(() => (view ? filterOperations(view, filter) : []), [view, filter]);
  const shown = groups.reduce((n, g) => n + g.operations.length, 0);

  return (
    <Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} sx={{ mb: 2 }}>
        <ToggleButtonGroup exclusive size="small" value={kind} sx={{ '& .MuiToggleButton-root:not(.Mui-selected)': { color: 'text.primary' } }} onChange={(_e, v: OpenApiKind | null) => v && setKind(v)} aria-label={t('resources.reference.which')}>
          <ToggleButton value="api">{t('resources.reference.api')}</ToggleButton>
          <ToggleButton value="botService">{t('resources.reference.botService')}</ToggleButton>
        </ToggleButtonGroup>
        <TextField
          size="small"
          type="search"
          label={t('resources.reference.filter')}
          placeholder={t('resources.reference.filterPlaceholder')}
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          sx={{ flex: 1, maxWidth: 420 }}
        />
        {url && (
          <Link href={url} target="_blank" rel="noopener noreferrer" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
            openapi.json
            <MdiIcon path={mdiOpenInNew} fontSize="small" aria-hidden />
            <Box component="span" sx={visuallyHidden}>
              {t('resources.integration.newTab')}
            </Box>
          </Link>
        )}
      </Stack>
      {doc.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void doc.refetch()}>
              {t('resources.reference.retry')}
            </Button>
          }
        >
          {t('resources.reference.loadFailed')}
        </Alert>
      ) : !view ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status">
          <CircularProgress size={18} aria-hidden />
          <Typography variant="body2">{t('resources.reference.loading')}</Typography>
        </Stack>
      ) : (
        <>
          <Typography variant="body2" color="text.secondary" role="status" aria-live="polite" sx={{ mb: 2 }} data-testid="reference-count">
            {view.title} {view.version} · {t('resources.reference.server', { url: view.serverUrl })} · {t('resources.reference.count', { count: shown })}
          </Typography>
          {groups.length === 0 ? (
            <EmptyView />
          ) : (
            <Stack spacing={3}>
              {groups.map((g) => (
                <Box key={g.tag} component="section" aria-labelledby={`ref-tag-${g.tag}`}>
                  <Typography id={`ref-tag-${g.tag}`} component="h2" variant="h6" sx={{ mb: 1, fontFamily: 'monospace' }}>
                    {g.tag}
                  </Typography>
                  <Stack spacing={1}>
                    {g.operations.map((op) => (
                      <OperationItem key={`${op.method} ${op.path}`} op={op} />
                    ))}
                  </Stack>
                </Box>
              ))}
            </Stack>
          )}
        </>
      )}
    </Box>
  );
}

// ---------- downloads ----------

function DownloadsSection() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const alert = useAlert();
  const config = useConfig();
  const integration = useIntegration();
  const [busy, setBusy] = useState(false);
  const key = integration.data?.access_key ?? null;

  const download = async () => {
    if (!key) return;
    setBusy(true);
    try {
      const list = await fetchOptOuts(http, botServiceUrl(integration.data, config, origin()), key);
      saveFile(`${t('resources.downloads.fileName')}-${new Date().toISOString().slice(0, 10)}.csv`, optOutCsvText(list));
      alert.success(t('resources.downloads.downloaded', { count: list.data.length }));
    } catch {
      alert.error(t('resources.downloads.failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Typography component="h2" variant="h6">
        {t('resources.downloads.title')}
      </Typography>
      <Typography component="h3" variant="subtitle1" fontWeight={600} sx={{ mt: 1 }}>
        {t('resources.downloads.optOut')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
        {t('resources.downloads.optOutHelp')}
      </Typography>
      {integration.isPending ? (
        <CircularProgress size={18} aria-label={t('resources.integration.loading')} />
      ) : key ? (
        <Button variant="contained" onClick={() => void download()} disabled={busy} startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : <MdiIcon path={mdiDownload} />}>
          {busy ? t('resources.downloads.downloading') : t('resources.downloads.download')}
        </Button>
      ) : (
        <Alert severity="info" data-testid="downloads-admins-only">
          {t('resources.downloads.adminsOnly')}
        </Alert>
      )}
    </Paper>
  );
}
