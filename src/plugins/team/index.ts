import { lazy } from 'react';
import { mdiAccountGroupOutline, mdiShieldAccountOutline } from '@mdi/js';
import { createPlugin, mdiIconComponent } from '../../core';
import { translations } from './translations';

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
    { path: '/team', name: 'team', area: 'members', feature: { key: 'members' }, component: lazy(() => import('./TeamPage')) },
    { path: '/permissions', name: 'permissions', area: 'permissions', component: lazy(() => import('./PermissionsPage')) },
  ],
  menu: [
    { to: '/team', label: 'team.menu', icon: TeamIcon, area: 'members', order: 70 },
    { to: '/permissions', label: 'permissions.menu', icon: PermissionsIcon, area: 'permissions', order: 80 },
  ],
  translations,
});
