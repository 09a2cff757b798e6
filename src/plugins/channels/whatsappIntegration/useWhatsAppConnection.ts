import { useEffect, useState } from 'react';
import { httpApiRef, useAccount, useApi } from '../../../core';
import { fetchChannels } from '../api';

export interface WhatsAppConnection {
  loading: boolean;
  /** The connected WhatsApp numbers of the selected company (display numbers, or names without one). */
  numbers: string[];
}

/**
 * Whether the selected company really has a connected WhatsApp number (GET /api/channels/), for the
 * outcome pages opened without a signup of their own: they show the truth, not a success they
 * never saw. `enabled` false skips the call. A failed read counts as nothing connected.
 */
export function useWhatsAppConnection(enabled: boolean): WhatsAppConnection {
  const http = useApi(httpApiRef);
  const { companyId } = useAccount();
  const [state, setState] = useState<WhatsAppConnection>({ loading: enabled, numbers: [] });

  useEffect(() => {
    if (!enabled) return undefined;
    let cancelled = false;
    setState({ loading: true, numbers: [] });
    fetchChannels(http, 1, 0).then(
      (answer) => {
        if (cancelled) return;
        const whatsapp = answer.results.filter((channel) => channel.platform === 'whatsapp' && channel.connected);
        setState({ loading: false, numbers: whatsapp.map((channel) => channel.display_phone_number || channel.name) });
      },
      () => !cancelled && setState({ loading: false, numbers: [] }),
    );
    return () => {
      cancelled = true;
    };
  }, [enabled, http, companyId]);

  return state;
}
