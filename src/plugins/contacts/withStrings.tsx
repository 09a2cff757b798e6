import { lazy, Suspense, type ComponentType } from 'react';
import { PageLoading, PluginStrings } from '../../core';

/**
 * A react-admin resource view of this plugin, loaded when first shown together with the plugin's
 * strings (resources are not plugin routes, which the route wrapper does this for).
 */
export function withContactsStrings(load: () => Promise<ComponentType>): ComponentType {
  const Lazy = lazy(() => load().then((component) => ({ default: component })));
  return function ContactsView() {
    return (
      <Suspense fallback={<PageLoading />}>
        <PluginStrings plugins={['contacts']}>
          <Lazy />
        </PluginStrings>
      </Suspense>
    );
  };
}
