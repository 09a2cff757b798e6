import type { CompanyMembership, User } from '../../../contract/api';
import type { AccountEvent, AccountStore } from '../apis';

/** Spec §9: the account store (user + selected company) is saved in full. */
export const ACCOUNT_STORAGE_KEY = 'console.account';

interface Saved {
  user: User | null;
  companyId: number | null;
}

/** The saved account (user and selected company), or none when there is none or it cannot be read. */
export function loadSavedAccount(storage: Pick<Storage, 'getItem'>): Saved {
  try {
    const raw = storage.getItem(ACCOUNT_STORAGE_KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<Saved>;
      return { user: parsed.user ?? null, companyId: typeof parsed.companyId === 'number' ? parsed.companyId : null };
    }
  } catch {
    // a corrupt entry is treated as no account
  }
  return { user: null, companyId: null };
}

export function createAccountStore(storage: Storage = localStorage): AccountStore {
  let state = loadSavedAccount(storage);
  const listeners = new Set<(event: AccountEvent) => void>();

  const save = () => storage.setItem(ACCOUNT_STORAGE_KEY, JSON.stringify(state));
  const emit = (event: AccountEvent) => listeners.forEach((l) => l(event));
  const findCompany = (id: number | null): CompanyMembership | null =>
    id === null ? null : state.user?.companies?.find((c) => c.id === id) ?? null;

  return {
    getUser: () => state.user,
    setUser(user) {
      // An equal user (the start-up reload of the saved one) keeps its object, so the views reading it
      // (useAccount's useSyncExternalStore) do not re-render for nothing, synchronously, while the console
      // mounts (bench/bundle README); the event still says the user was loaded (accountRefresh.ts).
      if (user === null || state.user === null || JSON.stringify(user) !== JSON.stringify(state.user)) {
        state = { ...state, user };
        save();
      }
      emit('userChanged');
    },
    getCompanyId: () => state.companyId,
    getCompany: () => findCompany(state.companyId),
    selectCompany(companyId) {
      state = { ...state, companyId };
      save();
      emit('companyChanged');
    },
    clear() {
      state = { user: null, companyId: null };
      storage.removeItem(ACCOUNT_STORAGE_KEY);
      emit('signedOut');
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
