/**
 * The chat service's way to the realtime hub: the app's hub, unless a test routes the broadcasts to a
 * fake one (useHubForTests). One per app, created by the chats plugin's init.
 */
import type { Broadcaster } from './service';

export class BroadcastSwitch implements Broadcaster {
  private override: Broadcaster | null = null;

  constructor(private readonly hub: Broadcaster) {}

  /** Tests: every broadcast goes to `hub` from now on (null: back to the app's hub). */
  useForTests(hub: Broadcaster | null): void {
    this.override = hub;
  }

  broadcast(...args: Parameters<Broadcaster['broadcast']>): ReturnType<Broadcaster['broadcast']> {
    return (this.override ?? this.hub).broadcast(...args);
  }
}
