/**
 * The channel providers' registry (chats' extension point): channel plugins register the provider that
 * sends a platform's messages; the chat service looks them up when it delivers.
 */
import type { Platform } from '../../../contract/chats';
import type { ChannelProviderRegistry } from './index';
import type { ChannelProvider } from './service';

export class ChannelProviders implements ChannelProviderRegistry {
  private readonly providers = new Map<Platform, ChannelProvider>();
  private readonly listeners: ((platform: Platform, provider: ChannelProvider) => void)[] = [];

  register(platform: Platform, provider: ChannelProvider): void {
    this.providers.set(platform, provider);
    for (const listener of this.listeners) listener(platform, provider);
  }

  /** Calls `listener` for every provider registered, already or later. */
  forEach(listener: (platform: Platform, provider: ChannelProvider) => void): void {
    for (const [platform, provider] of this.providers) listener(platform, provider);
    this.listeners.push(listener);
  }
}
