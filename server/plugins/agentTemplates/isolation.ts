/**
 * This plugin's part of the generated tenant-isolation test (server/testing/isolation/areas.ts).
 * The world's agent templates are its data: A's calls name B's template.
 */
import type { IsolationArea } from '../../testing/isolation/areas';

export const agentTemplatesIsolation: IsolationArea = {
  name: 'agentTemplates',
  routes: {
    'GET /api/agent-templates/': { allowed: [200] },
    'POST /api/agent-templates/': { body: () => ({ name: 'A template', text: 'A text' }), allowed: [201] },
    'PUT /api/agent-templates/:id': { params: (w) => ({ id: w.B.agentTemplateId }), body: () => ({ name: 'Taken over', text: 'by A' }) },
    'PUT /api/agent-templates/:id/': { params: (w) => ({ id: w.B.agentTemplateId }), body: () => ({ name: 'Taken over', text: 'by A' }) },
    'DELETE /api/agent-templates/:id': { params: (w) => ({ id: w.B.agentTemplateId }) },
    'DELETE /api/agent-templates/:id/': { params: (w) => ({ id: w.B.agentTemplateId }) },
  },
};
