import type { PLAN_LIMIT_ERROR_CODE as ContractCode, PlanLimitErrorBody } from '../../../contract/billing';

/** contract/billing's code, type-checked; not a value import: that module's zod schemas (the billing pages') would join the shell's chunk. */
const PLAN_LIMIT_ERROR_CODE: typeof ContractCode = 'plan_limit_reached';
import type { AlertApi, HttpError, HttpProvider, PermissionProvider } from '../../core';

export interface PlanLimitAlertDeps {
  http: HttpProvider;
  alert: AlertApi;
  permissions: PermissionProvider;
  translate: (key: string) => string;
  /** Runs after the caller's own handling (tests pass a synchronous one). */
  later?: (fn: () => void) => void;
}

export function isPlanLimitError(error: HttpError): error is HttpError & { body: PlanLimitErrorBody } {
  const body = error.body as Partial<PlanLimitErrorBody> | null;
  return error.status === 403 && !!body && typeof body === 'object' && body.code === PLAN_LIMIT_ERROR_CODE && typeof body.detail === 'string';
}

/**
 * Any call refused by the plan's limits (403 plan_limit_reached, contract/billing.ts), whichever page
 * made it: the server's message (it names the limit and the plan that lifts it) is shown with a link
 * to /pricing for members who may see it. It runs after the page's own error alert, which it
 * replaces with the same words plus the link.
 */
export function listenToPlanLimits(deps: PlanLimitAlertDeps): () => void {
  const later = deps.later ?? ((fn) => setTimeout(fn, 0));
  return (
    deps.http.onFailure?.((error) => {
      if (!isPlanLimitError(error)) return;
      later(() => {
        const canSeePlans = deps.permissions.canView('billing');
        const text = canSeePlans ? error.body.detail : `${error.body.detail} ${deps.translate('billing.limit.askAdmin')}`;
        deps.alert.show(text, 'error', canSeePlans ? { action: { label: deps.translate('billing.limit.seePlans'), to: '/pricing' } } : {});
      });
    }) ?? (() => undefined)
  );
}
