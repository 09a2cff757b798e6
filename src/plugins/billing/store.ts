/**
 * Billing state (spec §3: plans, subscription, invoices) for the selected company. Pages read it
 * with useBilling(); selecting another company or signing out resets it (spec §4), and an answer
 * that arrives for the company the user has left is dropped.
 */
import { useSyncExternalStore } from 'react';
import { accountApiRef, createApiFactory, createApiRef, useApi, type AccountStore } from '../../core';
import type { Plan, PlanChangePreview, Subscription } from '../../../contract/billing';
import { billingApiRef, type BillingApi, type InvoicePage } from './api';

export interface Loadable<T> {
  data: T | null;
  loading: boolean;
  error: unknown;
}

export interface BillingState {
  plans: Loadable<Plan[]>;
  subscription: Loadable<Subscription>;
  invoices: Loadable<InvoicePage> & { page: number; pageSize: number };
}

export const DEFAULT_INVOICE_PAGE_SIZE = 10;

export interface BillingStore {
  getState(): BillingState;
  subscribe(listener: () => void): () => void;
  loadPlans(): Promise<void>;
  /** `search`: the page's query string, passed as is (spec §7). */
  loadSubscription(search?: string): Promise<void>;
  /** Loads a page of invoices (the current page and size when not given). */
  loadInvoices(page?: number, pageSize?: number): Promise<void>;
  /** POST /api/subscriptions/: the checkout URL to send the browser to (a plan change: billed as its confirmed preview). */
  startCheckout(planId: number, prorationDate?: number): Promise<string>;
  /** What a plan change costs now (the provider's proration preview), before it is confirmed. */
  previewChange(planId: number): Promise<PlanChangePreview>;
  /** Cancels at the period's end and keeps the answer as the subscription. */
  cancel(): Promise<void>;
  resume(): Promise<void>;
  /** The customer portal's URL. */
  portalUrl(): Promise<string>;
  /** Forgets everything (company switch, sign-out). */
  reset(): void;
}

const idle = <T,>(): Loadable<T> => ({ data: null, loading: false, error: null });

function initialState(): BillingState {
  return { plans: idle(), subscription: idle(), invoices: { ...idle<InvoicePage>(), page: 1, pageSize: DEFAULT_INVOICE_PAGE_SIZE } };
}

export function createBillingStore(deps: { api: BillingApi; account: AccountStore }): BillingStore {
  let state = initialState();
  /** Grows on every reset: answers of an older generation belong to another company. */
  let generation = 0;
  const listeners = new Set<() => void>();
  const set = (patch: Partial<BillingState>) => {
    state = { ...state, ...patch };
    listeners.forEach((l) => l());
  };

  async function load<K extends keyof BillingState>(key: K, fetch: () => Promise<NonNullable<BillingState[K]['data']>>, extra: Partial<BillingState[K]> = {}) {
    const mine = generation;
    set({ [key]: { ...state[key], ...extra, loading: true, error: null } } as Partial<BillingState>);
    try {
      const data = await fetch();
      if (mine === generation) set({ [key]: { ...state[key], data, loading: false, error: null } } as Partial<BillingState>);
    } catch (error) {
      if (mine === generation) set({ [key]: { ...state[key], loading: false, error } } as Partial<BillingState>);
    }
  }

  const store: BillingStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    loadPlans: () => load('plans', () => deps.api.plans()),
    loadSubscription: (search) => load('subscription', () => deps.api.activeSubscription(search)),
    loadInvoices(page = state.invoices.page, pageSize = state.invoices.pageSize) {
      return load('invoices', () => deps.api.invoices(page, pageSize), { page, pageSize });
    },
    async startCheckout(planId, prorationDate) {
      const answer = await deps.api.subscribe(planId, prorationDate);
      return answer.checkout_url;
    },
    previewChange: (planId) => deps.api.previewChange(planId),
    async cancel() {
      const mine = generation;
      const subscription = await deps.api.cancel();
      if (mine === generation) set({ subscription: { data: subscription, loading: false, error: null } });
    },
    async resume() {
      const mine = generation;
      const subscription = await deps.api.resume();
      if (mine === generation) set({ subscription: { data: subscription, loading: false, error: null } });
    },
    async portalUrl() {
      return (await deps.api.portal()).url;
    },
    reset() {
      generation += 1;
      state = initialState();
      listeners.forEach((l) => l());
    },
  };

  deps.account.subscribe((event) => {
    if (event === 'companyChanged' || event === 'signedOut') store.reset();
  });
  return store;
}

export const billingStoreApiRef = createApiRef<BillingStore>({ id: 'plugin.billing.store' });

export const billingStoreApiFactory = createApiFactory({
  api: billingStoreApiRef,
  deps: { api: billingApiRef, account: accountApiRef },
  factory: ({ api, account }) => createBillingStore({ api, account }),
});

/** The billing state and its store; re-renders on every change. */
export function useBilling(): [BillingState, BillingStore] {
  const store = useApi(billingStoreApiRef);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return [state, store];
}

/** Where the browser goes (the provider's checkout and portal are other sites); tests replace `assign`. */
export const browserLocation = {
  assign(url: string) {
    window.location.assign(url);
  },
};
