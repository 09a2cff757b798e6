/**
 * The billing client (issue #14; spec §7): plans, the active subscription (passing the page's query
 * string), subscribe (→ the provider's checkout URL), cancel, resume, the customer portal and the
 * invoices, paged. Types from contract/billing.ts.
 */
import { createApiFactory, createApiRef, httpApiRef, type HttpProvider } from '../../core';
import type { Invoice, InvoicesResponse, Plan, PlanChangePreview, PlansResponse, PortalResponse, SubscribeResponse, Subscription } from '../../../contract/billing';

export interface InvoicePage {
  count: number;
  results: Invoice[];
}

export interface BillingApi {
  plans(signal?: AbortSignal): Promise<Plan[]>;
  /** GET /api/subscriptions/active/ with the page's query string as is (e.g. `?checkout=success&session_id=cs_…`). */
  activeSubscription(search?: string, signal?: AbortSignal): Promise<Subscription>;
  /**
   * POST /api/subscriptions/ {plan_id, proration_date?}: where to send the browser (the provider's checkout, or
   * the account page after a plan change billed as the confirmed preview of `prorationDate`).
   */
  subscribe(planId: number, prorationDate?: number): Promise<SubscribeResponse>;
  /** POST /api/subscriptions/preview/ {plan_id}: what changing a running subscription's plan costs now. */
  previewChange(planId: number): Promise<PlanChangePreview>;
  /** DELETE /api/subscriptions/active/: cancels at the period's end. */
  cancel(): Promise<Subscription>;
  /** POST /api/subscriptions/active/resume/: undoes a cancellation before the period ends. */
  resume(): Promise<Subscription>;
  /** POST /api/subscriptions/portal/: the provider's customer portal (payment method). */
  portal(): Promise<PortalResponse>;
  invoices(page: number, pageSize: number, signal?: AbortSignal): Promise<InvoicePage>;
}

export const billingApiRef = createApiRef<BillingApi>({ id: 'plugin.billing' });

/** The page's query string as query parameters (spec §7: the active subscription call passes it). */
export function searchToQuery(search: string | undefined): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search ?? '')) query[key] = value;
  return query;
}

export function createBillingApi(http: HttpProvider): BillingApi {
  return {
    async plans(signal) {
      const body = await http.get<Partial<PlansResponse> | Plan[] | null>('/api/plans/', { signal });
      return Array.isArray(body) ? body : (body?.results ?? []);
    },
    activeSubscription(search, signal) {
      return http.get<Subscription>('/api/subscriptions/active/', { query: searchToQuery(search), signal });
    },
    subscribe(planId, prorationDate) {
      return http.post<SubscribeResponse>('/api/subscriptions/', { plan_id: planId, ...(prorationDate !== undefined ? { proration_date: prorationDate } : {}) });
    },
    previewChange(planId) {
      return http.post<PlanChangePreview>('/api/subscriptions/preview/', { plan_id: planId });
    },
    cancel() {
      return http.delete<Subscription>('/api/subscriptions/active/');
    },
    resume() {
      return http.post<Subscription>('/api/subscriptions/active/resume/');
    },
    portal() {
      return http.post<PortalResponse>('/api/subscriptions/portal/');
    },
    async invoices(page, pageSize, signal) {
      const body = await http.get<Partial<InvoicesResponse> | null>('/api/invoices/', { query: { page, page_size: pageSize }, signal });
      const results = body?.results ?? [];
      return { count: body?.count ?? results.length, results };
    },
  };
}

export const billingApiFactory = createApiFactory({
  api: billingApiRef,
  deps: { http: httpApiRef },
  factory: ({ http }) => createBillingApi(http),
});
