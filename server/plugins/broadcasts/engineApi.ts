/**
 * The seam between the broadcasts API (routes, audience, report: this folder) and the sending
 * engine (./engine/, job queue, pacing, Meta calls, delivery webhooks, opt-outs).
 *
 * The API side writes the `broadcasts` row and ALL its `broadcast_recipients` rows (state `queued`,
 * or `excluded` with a reason) in one transaction, then calls the engine. The engine implements
 * this interface in ./engine/index.ts (`createBroadcastEngine(deps)`); the plugin (./index.ts) hands
 * it to the API's service, which only ever calls these methods.
 *
 * Contract of each call (all idempotent: calling twice is harmless):
 * - start(id):   the broadcast is `scheduled` (scheduled_at in the future: the engine waits for it)
 *                or `sending` (send now). The engine owns every later status change
 *                (sending ↔ waiting, completed, failed) and the counters.
 * - pause(id):   the API has set status `paused`; the engine stops taking new recipients of it
 *                (an in-flight call finishes and records its result).
 * - resume(id):  the API has set status back to `scheduled` (still in the future) or `sending`.
 * - cancel(id):  the API has set status `cancelled`; recipients still `queued` stay `queued`
 *                (the report shows them as never sent) — the engine drops the broadcast's jobs.
 * - retry(id, recipientIds): the API has put these failed recipients back to `queued`
 *                (attempts kept) and the broadcast back to `sending`; the engine sends them again.
 *
 * Each recipient's `variables` (contract ResolvedVariables: body, header, URL buttons) are resolved at
 * creation; `templateOutbound(broadcast, recipient.variables)` in ./audience/variables.ts turns them
 * (with the broadcast's template components and media header URL) into the Graph adapter's template
 * content, header included. A media header stored as our own private file (the console's upload,
 * `/media/chats/{company}/…`) must be passed as a signed link: give templateOutbound the resolver
 * `(url) => mediaUrlForCompany(storage, url, companyId)` (server/providers/storage/privateMedia.ts).
 *
 * Status changes made by the API happen BEFORE the call, in the database, so a crash between the
 * two is recovered by the engine's own start-up scan of `scheduled`/`sending`/`waiting` broadcasts.
 */
export interface BroadcastEngine {
  start(broadcastId: number): Promise<void>;
  pause(broadcastId: number): Promise<void>;
  resume(broadcastId: number): Promise<void>;
  cancel(broadcastId: number): Promise<void>;
  retry(broadcastId: number, recipientIds: number[]): Promise<void>;
}
