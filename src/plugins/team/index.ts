import { mdiAccountGroupOutline, mdiShieldAccountOutline } from '@mdi/js';
import { createPlugin, lazyPage, mdiIconComponent } from '../../core';
import { shellTranslations } from './shellTranslations';

const TeamIcon = mdiIconComponent(mdiAccountGroupOutline);
const PermissionsIcon = mdiIconComponent(mdiShieldAccountOutline);

/** Team area: members (roles, removal, avatars), invites and the per-role permission matrix. */
export const teamPlugin = createPlugin({
  id: 'team',
  featureFlag: 'members',
  resources: [
    { name: 'members', area: 'members' },
    { name: 'invites', area: 'members' },
  ],
  routes: [
    { path: '/team', name: 'team', area: 'members', feature: { key: 'members' }, component: lazyPage(() => import('./TeamPage')) },
    { path: '/permissions', name: 'permissions', area: 'permissions', component: lazyPage(() => import('./PermissionsPage')) },
  ],
  menu: [
    { to: '/team', label: 'team.menu', icon: TeamIcon, area: 'members', order: 70 },
    { to: '/permissions', label: 'permissions.menu', icon: PermissionsIcon, area: 'permissions', order: 80 },
  ],
  translations: shellTranslations,
  lazyTranslations: {
    en: () => import('./translations.en').then((m) => m.default),
    fr: () => import('./translations.fr').then((m) => m.default),
  },
});
