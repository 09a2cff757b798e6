import { Menu } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { permissionApiRef } from '../apis';
import { useAccount } from '../account/useAccount';
import { useApi } from '../di/ApiProvider';
import { MdiIcon } from '../components/MdiIcon';
import { useConsole } from '../plugins/ConsoleContext';
import type { MenuEntry } from '../plugins/types';
import { isServedPath, routeAreaFor } from '../routing/routeAccess';

function EntryIcon({ icon }: { icon: MenuEntry['icon'] }) {
  if (!icon) return null;
  if (typeof icon === 'string') return <MdiIcon path={icon} />;
  const Icon = icon;
  return <Icon />;
}

/**
 * Enabled plugins' menu entries (already sorted by order) that lead to a page a loaded plugin
 * serves (never to "Not Found") and that the user may view.
 */
export function useVisibleMenu(): MenuEntry[] {
  const { menu, routes, resources } = useConsole();
  const permissions = useApi(permissionApiRef);
  useAccount(); // permissions follow the selected company
  return menu.filter((entry) => {
    if (!isServedPath(entry.to, routes, resources)) return false;
    const area = entry.area ?? routeAreaFor(entry.to.split(/[?#]/)[0], routes, resources);
    return area === null || permissions.canView(area);
  });
}

export function ConsoleMenu() {
  const entries = useVisibleMenu();
  const { t } = useTranslation();
  return (
    <Menu>
      {entries.map((entry) => (
        <Menu.Item key={entry.to} to={entry.to} primaryText={t(entry.label)} leftIcon={<EntryIcon icon={entry.icon} />} />
      ))}
    </Menu>
  );
}
