import { Menu } from 'react-admin';
import { useTranslation } from 'react-i18next';
import { matchPath, useLocation } from 'react-router-dom';
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

/** The entry that claims this path through its `activeFor` patterns (a page under another entry's prefix), if any. */
export function claimingEntry(entries: readonly MenuEntry[], pathname: string): MenuEntry | undefined {
  return entries.find((entry) => entry.activeFor?.some((path) => matchPath({ path, end: false }, pathname)));
}

/** react-admin marks the entry whose `to` prefixes the path; an entry's `activeFor` takes the mark over. */
const NOT_ACTIVE = { '&.RaMenuItemLink-active': { color: 'text.secondary' } } as const;

export function ConsoleMenu() {
  const entries = useVisibleMenu();
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const claimer = claimingEntry(entries, pathname);
  return (
    <Menu>
      {entries.map((entry) => (
        <Menu.Item
          key={entry.to}
          to={entry.to}
          primaryText={t(entry.label)}
          leftIcon={<EntryIcon icon={entry.icon} />}
          className={claimer === entry ? 'RaMenuItemLink-active' : undefined}
          sx={claimer && claimer !== entry ? NOT_ACTIVE : undefined}
        />
      ))}
    </Menu>
  );
}
