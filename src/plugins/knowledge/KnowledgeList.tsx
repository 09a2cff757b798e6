import { useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { mdiFileUploadOutline, mdiPlus } from '@mdi/js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { KnowledgeItemSummary } from '../../../contract/assistant';
import { EmptyView, errorText, formatDate, InlineFacts, MdiIcon, TABLE_PAGE_SIZES, useAccount, useApi, useIsPhone } from '../../core';
import { knowledgeApiRef } from './api';
import { ArticleDialog } from './ArticleDialog';
import { ItemDialog } from './ItemDialog';
import { UploadDialog } from './UploadDialog';

export const KNOWLEDGE_QUERY_KEY = ['knowledge'] as const;

/** The knowledge items: search, pages, add an article, upload a document; a row opens the item and its passages. */
export function KnowledgeList({ canManage }: { canManage: boolean }) {
  const { t, i18n } = useTranslation();
  const api = useApi(knowledgeApiRef);
  const { companyId } = useAccount();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const [open, setOpen] = useState<number | null>(null);
  const [adding, setAdding] = useState(false);
  const [uploading, setUploading] = useState(false);
  const list = useQuery({
    queryKey: [...KNOWLEDGE_QUERY_KEY, companyId, search, page, pageSize],
    queryFn: ({ signal }) => api.list({ page: page + 1, page_size: pageSize, ...(search.trim() ? { search: search.trim() } : {}) }, signal),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const date = (iso: string) => formatDate(iso, i18n.language, {});
  const phone = useIsPhone();

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2 }} alignItems={{ sm: 'center' }}>
        <TextField
          size="small"
          label={t('knowledge.search')}
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(0);
          }}
          sx={{ flex: 1, maxWidth: 420 }}
        />
        {canManage && (
          <Stack direction="row" spacing={1}>
            <Button variant="contained" disableElevation startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setAdding(true)}>
              {t('knowledge.addArticle')}
            </Button>
            <Button variant="outlined" startIcon={<MdiIcon path={mdiFileUploadOutline} />} onClick={() => setUploading(true)}>
              {t('knowledge.uploadDocument')}
            </Button>
          </Stack>
        )}
      </Stack>
      {list.isPending ? (
        <Stack direction="row" spacing={1} alignItems="center" role="status" sx={{ py: 4, justifyContent: 'center' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{t('knowledge.loading')}</Typography>
        </Stack>
      ) : list.error ? (
        <Alert severity="error">{t('knowledge.loadFailed', { error: errorText(list.error) })}</Alert>
      ) : list.data.results.length === 0 ? (
        <EmptyView />
      ) : (
        <Paper variant="outlined">
          <TableContainer>
            <Table size="small" aria-label={t('knowledge.tabs.items')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('knowledge.fields.title')}</TableCell>
                  {!phone && (
                    <>
                      <TableCell>{t('knowledge.fields.kind')}</TableCell>
                      <TableCell align="right">{t('knowledge.fields.passages')}</TableCell>
                      <TableCell>{t('knowledge.fields.updated')}</TableCell>
                    </>
                  )}
                </TableRow>
              </TableHead>
              <TableBody>
                {list.data.results.map((item: KnowledgeItemSummary) => (
                  <TableRow key={item.id} hover>
                    <TableCell>
                      <Button onClick={() => setOpen(item.id)} sx={{ p: 0, minWidth: 0, fontWeight: 600, textAlign: 'left', justifyContent: 'flex-start' }}>
                        {item.title}
                      </Button>
                      {item.file_name && (
                        <Typography variant="caption" color="text.secondary" display="block">
                          {item.file_name}
                        </Typography>
                      )}
                      {phone && (
                        // A phone: the kind and the figures under the title, nothing scrolled sideways.
                        <Stack spacing={0.5} sx={{ mt: 0.75, alignItems: 'flex-start' }}>
                          <Chip size="small" label={t(`knowledge.kinds.${item.kind}`)} />
                          <InlineFacts
                            facts={[
                              { label: t('knowledge.fields.passages'), value: item.passage_count },
                              { label: t('knowledge.fields.updated'), value: date(item.updated_at) },
                            ]}
                          />
                        </Stack>
                      )}
                    </TableCell>
                    {!phone && (
                      <>
                        <TableCell>
                          <Chip size="small" label={t(`knowledge.kinds.${item.kind}`)} />
                        </TableCell>
                        <TableCell align="right">{item.passage_count}</TableCell>
                        <TableCell>{date(item.updated_at)}</TableCell>
                      </>
                    )}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <TablePagination
            component="div"
            count={list.data.count}
            page={page}
            rowsPerPage={pageSize}
            rowsPerPageOptions={TABLE_PAGE_SIZES.filter((n) => n > 0)}
            labelRowsPerPage={t('ra.navigation.page_rows_per_page')}
            labelDisplayedRows={({ from, to, count: total }) => t('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total })}
            onPageChange={(_e, next) => setPage(next)}
            onRowsPerPageChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(0);
            }}
          />
        </Paper>
      )}
      {open !== null && <ItemDialog id={open} canManage={canManage} onClose={() => setOpen(null)} />}
      {adding && <ArticleDialog item={null} onClose={() => setAdding(false)} />}
      {uploading && <UploadDialog onClose={() => setUploading(false)} />}
    </>
  );
}
