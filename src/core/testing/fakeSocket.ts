/**
 * A small in-memory fake of phoenix's Socket / Channel / Push, enough for the chat service: joins and
 * pushes are answered by a test-supplied `reply` function (asynchronously, like a server), events are
 * delivered with `emit`, and `drop()` / `open()` simulate a reconnect (channels rejoin with their
 * params closure, as phoenix does).
 */
import type { RealtimeSocket } from '../apis';

export type Reply = { status: 'ok' | 'error'; response?: unknown } | 'timeout' | undefined;
export type ReplyFn = (topic: string, event: string, payload: any) => Reply | Promise<Reply>;

type Hook = { status: string; callback: (resp: any) => void };

export class FakePush {
  private hooks: Hook[] = [];
  received: { status: string; response: unknown } | null = null;
  constructor(
    readonly event: string,
    readonly payload: any,
  ) {}
  receive(status: string, callback: (resp: any) => void): this {
    if (this.received?.status === status) callback(this.received.response);
    this.hooks.push({ status, callback });
    return this;
  }
  trigger(status: string, response: unknown) {
    this.received = { status, response };
    this.hooks.filter((h) => h.status === status).forEach((h) => h.callback(response));
  }
}

export class FakeChannel {
  state: 'closed' | 'joining' | 'joined' | 'errored' | 'leaving' = 'closed';
  private bindings: { event: string; ref: number; callback: (p: any) => void }[] = [];
  private ref = 0;
  joinPush: FakePush | null = null;
  private buffer: FakePush[] = [];
  left = false;

  constructor(
    readonly topic: string,
    private readonly params: unknown,
    private readonly socket: FakeSocket,
  ) {}

  joinParams(): any {
    return typeof this.params === 'function' ? (this.params as () => unknown)() : this.params;
  }
  on(event: string, callback: (p: any) => void): number {
    this.ref += 1;
    this.bindings.push({ event, ref: this.ref, callback });
    return this.ref;
  }
  off(event: string, ref?: number) {
    this.bindings = this.bindings.filter((b) => !(b.event === event && (ref === undefined || b.ref === ref)));
  }
  join(): FakePush {
    if (this.joinPush) throw new Error(`joined ${this.topic} twice`);
    this.joinPush = new FakePush('phx_join', null);
    this.joinPush.receive('ok', () => {
      this.state = 'joined';
      const pending = this.buffer;
      this.buffer = [];
      pending.forEach((p) => this.socket.send(this, p));
    });
    if (this.socket.connected) this.rejoin();
    return this.joinPush;
  }
  /** Sends the join again (first join, or after a reconnect). */
  rejoin() {
    if (!this.joinPush || this.left) return;
    this.state = 'joining';
    const payload = this.joinParams();
    this.socket.joins.push({ topic: this.topic, payload });
    const push = this.joinPush;
    push.received = null;
    void Promise.resolve(this.socket.reply(this.topic, 'phx_join', payload)).then((r) => {
      if (!this.socket.connected || this.left) return;
      if (r === 'timeout' || r === undefined) return;
      if (r.status === 'error') this.state = 'errored';
      push.trigger(r.status, r.response ?? {});
    });
  }
  push(event: string, payload: any, _timeout?: number): FakePush {
    const p = new FakePush(event, payload);
    this.socket.pushes.push({ topic: this.topic, event, payload });
    if (this.state === 'joined' && this.socket.connected) this.socket.send(this, p);
    else this.buffer.push(p);
    return p;
  }
  leave(): FakePush {
    this.left = true;
    this.state = 'closed';
    const p = new FakePush('phx_leave', {});
    p.trigger('ok', {});
    return p;
  }
  /** Server → client event. */
  trigger(event: string, payload: unknown) {
    this.bindings.filter((b) => b.event === event).forEach((b) => b.callback(payload));
  }
  /** Times out every buffered push (what phoenix does after the push timeout while offline). */
  timeoutBuffered() {
    const pending = this.buffer;
    this.buffer = [];
    pending.forEach((p) => p.trigger('timeout', null));
  }
}

export class FakeSocket {
  connected = false;
  channels: FakeChannel[] = [];
  joins: { topic: string; payload: any }[] = [];
  pushes: { topic: string; event: string; payload: any }[] = [];
  disconnected = false;
  // As phoenix: one ref counter for every state callback, so `off(refs)` removes exactly those.
  private callbackRef = 0;
  private openCbs: [string, () => void][] = [];
  private errorCbs: [string, (r?: unknown) => void][] = [];
  private closeCbs: [string, (e?: unknown) => void][] = [];

  constructor(readonly reply: ReplyFn, private readonly autoOpen = true) {}

  private register<T>(list: [string, T][], cb: T): string {
    const ref = String((this.callbackRef += 1));
    list.push([ref, cb]);
    return ref;
  }
  onOpen(cb: () => void) {
    return this.register(this.openCbs, cb);
  }
  onError(cb: (r?: unknown) => void) {
    return this.register(this.errorCbs, cb);
  }
  onClose(cb: (e?: unknown) => void) {
    return this.register(this.closeCbs, cb);
  }
  /** phoenix's `off`: removes onOpen / onError / onClose callbacks by the refs they returned. */
  off(refs: string[]) {
    this.openCbs = this.openCbs.filter(([ref]) => !refs.includes(ref));
    this.errorCbs = this.errorCbs.filter(([ref]) => !refs.includes(ref));
    this.closeCbs = this.closeCbs.filter(([ref]) => !refs.includes(ref));
  }
  connect() {
    if (this.autoOpen) queueMicrotask(() => this.open());
  }
  disconnect() {
    this.disconnected = true;
    this.connected = false;
  }
  isConnected() {
    return this.connected;
  }
  endPointURL() {
    return 'ws://fake.test/socket/websocket';
  }
  channel(topic: string, params?: unknown): FakeChannel {
    const c = new FakeChannel(topic, params, this);
    this.channels.push(c);
    return c;
  }
  /** The open (not left) channel of a topic. */
  find(topic: string): FakeChannel | undefined {
    return this.channels.filter((c) => c.topic === topic && !c.left).pop();
  }
  /** Socket opens: channels waiting (first join or after a drop) join again. */
  open() {
    if (this.disconnected) return;
    this.connected = true;
    this.openCbs.forEach(([, cb]) => cb());
    this.channels.filter((c) => c.joinPush && !c.left && c.state !== 'joined').forEach((c) => c.rejoin());
  }
  /** Connection lost: channels become errored until the socket opens again. */
  drop(closeCode?: number) {
    this.connected = false;
    this.channels.forEach((c) => {
      if (!c.left) c.state = 'errored';
    });
    this.errorCbs.forEach(([, cb]) => cb('drop'));
    this.closeCbs.forEach(([, cb]) => cb(closeCode === undefined ? undefined : { code: closeCode }));
  }
  /** Server → client event on a topic. */
  emit(topic: string, event: string, payload: unknown) {
    this.channels.filter((c) => c.topic === topic && !c.left && c.state === 'joined').forEach((c) => c.trigger(event, payload));
  }
  send(channel: FakeChannel, push: FakePush) {
    void Promise.resolve(this.reply(channel.topic, push.event, push.payload)).then((r) => {
      if (r === undefined || r === 'timeout') return;
      push.trigger(r.status, r.response ?? {});
    });
  }
  asSocket(): RealtimeSocket {
    return this;
  }
}

/** Lets pending promise callbacks (fake replies) run. */
export async function flush(times = 5) {
  for (let i = 0; i < times; i++) await Promise.resolve();
}
