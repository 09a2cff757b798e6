/** The server plugin contract: refs, extension points, the core's services and the plugin definition. */
export { createServiceRef, createExtensionPoint, type ServiceRef, type ExtensionPoint, type ResolvedDeps } from './refs';
export { defineServerPlugin, offerExtensionPoint, type ServerPlugin, type ServerPluginDefinition, type ExtensionPointOffer } from './defineServerPlugin';
export { coreServices, coreExtensionPoints, type PluginLifecycle } from './coreServices';
