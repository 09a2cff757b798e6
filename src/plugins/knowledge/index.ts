import { mdiBookshelf } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { knowledgeApiFactory } from './api';
import { shellTranslations } from './shellTranslations';

const KnowledgeIcon = mdiIconComponent(mdiBookshelf);

/**
 * Knowledge and the AI assistant (issue #24): /knowledge lists the company's knowledge (articles,
 * uploaded documents, the flows' extra context) with the passages each became, and holds the
 * assistant's settings and a "Try a question" box (server/plugins/assistant; contract/assistant.ts).
 * Permission area and feature key: `assistant`.
 */
export const knowledgePlugin = createPlugin({
  id: 'knowledge',
  featureFlag: 'assistant',
  apis: [knowledgeApiFactory],
  routes: [{ path: '/knowledge', name: 'assistant', area: 'assistant', feature: { key: 'assistant' }, component: lazyPage(() => import('./KnowledgePage')) }],
  menu: [{ to: '/knowledge', label: 'knowledge.menu', icon: KnowledgeIcon, area: 'assistant', order: 45 }],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});
