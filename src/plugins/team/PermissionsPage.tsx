import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  CircularProgress,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { authApiRef, EmptyView, errorText, httpApiRef, loadedAreas, PageLoading, useAccess, useAccount, useAlert, useApi, useConsole } from '../../core';
import { PERMISSION_AREAS, type PermissionMap, type RoleId } from '../../../contract/permissions';
import type { RolePermissions } from '../../../contract/team';
import { differs, fullMap, readFlag, setFlag, type PermissionAction } from './permissionMatrix';

const ACTIONS: PermissionAction[] = ['view', 'manage'];

/**
 * /permissions: rows are the permission areas of the loaded plugins, columns view/manage per role. Editable only with
 * manage access to permissions; the admin role is read-only. Saving PATCHes each changed role and
 * reloads the signed-in user, so the console's guard and menu follow at once.
 */
export default function PermissionsPage() {
  const { t } = useTranslation();
  const http = useApi(httpApiRef);
  const auth = useApi(authApiRef);
  const alert = useAlert();
  const queryClient = useQueryClient();
  const { companyId } = useAccount();
  const { canManage } = useAccess('permissions');
  // Rows only for areas a loaded plugin serves; the others keep their stored flags (a save sends them unchanged).
  const { routes, resources } = useConsole();
  const areas = useMemo(() => {
    const served = loadedAreas(routes, resources);
    return PERMISSION_AREAS.filter((area) => served.has(area));
  }, [routes, resources]);
  const queryKey = useMemo(() => ['team', 'permissions', companyId], [companyId]);
  const { data, isPending, error } = useQuery({
    queryKey,
    queryFn: async () => (await http.get<{ results: RolePermissions[] }>('/api/permissions/')).results ?? [],
    retry: false,
  });
  const [draft, setDraft] = useState<Record<string, PermissionMap>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (data) setDraft(Object.fromEntries(data.map((r) => [r.role_id, fullMap(r.permissions)])));
  }, [data]);

  if (isPending) return <PageLoading />;
  if (error) return <EmptyView title={errorText(error)} message="" />;
  const roles = data ?? [];
  const changed = roles.filter((r) => r.editable && draft[r.role_id] && differs(draft[r.role_id], r.permissions));

  const toggle = (roleId: RoleId, action: PermissionAction, area: string, value: boolean) =>
    setDraft((d) => ({ ...d, [roleId]: setFlag(d[roleId] ?? {}, action, area, value) }));

  const save = async () => {
    setSaving(true);
    let failed = false;
    for (const role of changed) {
      try {
        await http.patch<RolePermissions>(`/api/permissions/${role.role_id}/`, { permissions: fullMap(draft[role.role_id]) });
      } catch (e) {
        failed = true;
        alert.error(t('permissions.saveError', { role: role.name, error: errorText(e) }));
        break;
      }
    }
    await queryClient.invalidateQueries({ queryKey });
    // The guard and the menu read the selected company's permissions from the account.
    await auth.loadUser().catch(() => undefined);
    if (!failed) alert.success(t('permissions.saved'));
    setSaving(false);
  };

  const discard = () => setDraft(Object.fromEntries(roles.map((r) => [r.role_id, fullMap(r.permissions)])));

  return (
    <Box sx={{ p: { xs: 2, md: 3 } }}>
      <Typography variant="h4" component="h1" fontWeight={700}>
        {t('permissions.title')}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('permissions.subtitle')}
      </Typography>
      {!canManage && (
        <Alert severity="info" variant="outlined" sx={{ mb: 2 }}>
          {t('permissions.readOnly')}
        </Alert>
      )}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t('permissions.title')}>
          <TableHead>
            <TableRow>
              <TableCell rowSpan={2}>{t('permissions.area')}</TableCell>
              {roles.map((role) => (
                <TableCell key={role.role_id} colSpan={2} align="center" sx={{ fontWeight: 700 }} title={role.editable ? undefined : t('permissions.adminLocked')}>
                  {role.name}
                </TableCell>
              ))}
            </TableRow>
            <TableRow>
              {roles.flatMap((role) =>
                ACTIONS.map((action) => (
                  <TableCell key={`${role.role_id}-${action}`} align="center">
                    {t(`permissions.${action}`)}
                  </TableCell>
                )),
              )}
            </TableRow>
          </TableHead>
          <TableBody>
            {areas.map((area) => (
              <TableRow key={area} hover>
                <TableCell component="th" scope="row">
                  {t(`permissions.areas.${area}`)}
                </TableCell>
                {roles.flatMap((role) =>
                  ACTIONS.map((action) => {
                    const map = draft[role.role_id] ?? role.permissions;
                    const label = t('permissions.checkbox', { action: t(`permissions.${action}`), area: t(`permissions.areas.${area}`), role: role.name });
                    return (
                      <TableCell key={`${role.role_id}-${action}`} align="center" padding="checkbox">
                        <Checkbox
                          size="small"
                          checked={readFlag(map, action, area)}
                          disabled={!canManage || !role.editable || saving}
                          onChange={(e) => toggle(role.role_id, action, area, e.target.checked)}
                          slotProps={{ input: { 'aria-label': label } }}
                        />
                      </TableCell>
                    );
                  }),
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {canManage && (
        <Stack direction="row" spacing={1.5} justifyContent="flex-end" sx={{ mt: 2 }}>
          <Button onClick={discard} disabled={saving || changed.length === 0}>
            {t('permissions.reset')}
          </Button>
          <Button
            variant="contained"
            disableElevation
            onClick={() => void save()}
            disabled={saving || changed.length === 0}
            startIcon={saving ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}
            sx={{ fontWeight: 600 }}
          >
            {t('permissions.save')}
          </Button>
        </Stack>
      )}
    </Box>
  );
}
