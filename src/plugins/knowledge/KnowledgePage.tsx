import { useState } from 'react';
import { Alert, Box, Tab, Tabs, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useAccess } from '../../core';
import { KnowledgeList } from './KnowledgeList';
import { AssistantPanel } from './AssistantPanel';

/** /knowledge: the company's knowledge (list, add, upload, passages) and the assistant (settings, try a question). */
export default function KnowledgePage() {
  const { t } = useTranslation();
  const { canManage } = useAccess('assistant');
  const [tab, setTab] = useState<'items' | 'assistant'>('items');
  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('knowledge.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('knowledge.subtitle')}
      </Typography>
      {!canManage && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('knowledge.readOnly')}
        </Alert>
      )}
      <Tabs value={tab} onChange={(_e, value: 'items' | 'assistant') => setTab(value)} sx={{ mb: 2 }}>
        <Tab value="items" label={t('knowledge.tabs.items')} id="knowledge-tab-items" aria-controls="knowledge-panel-items" />
        <Tab value="assistant" label={t('knowledge.tabs.assistant')} id="knowledge-tab-assistant" aria-controls="knowledge-panel-assistant" />
      </Tabs>
      <div role="tabpanel" id={`knowledge-panel-${tab}`} aria-labelledby={`knowledge-tab-${tab}`}>
        {tab === 'items' ? <KnowledgeList canManage={canManage} /> : <AssistantPanel canManage={canManage} />}
      </div>
    </Box>
  );
}
