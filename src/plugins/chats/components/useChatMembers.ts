/**
 * The company's members as the inbox needs them (GET /api/chats/members/, chats view): the assignee
 * picker and `@` in a note. Loaded the first time `load` is true; null until then (and while loading).
 */
import { useEffect, useState } from 'react';
import type { ChatMember } from '../../../../contract/conversations';
import { httpApiRef, useApi } from '../../../core';

export function useChatMembers(load: boolean): ChatMember[] | null {
  const http = useApi(httpApiRef);
  const [members, setMembers] = useState<ChatMember[] | null>(null);
  useEffect(() => {
    if (!load || members) return;
    let live = true;
    http
      .get<{ results?: ChatMember[] }>('/api/chats/members/', { query: { page_size: 1000 } })
      .then((r) => live && setMembers(r.results ?? []))
      .catch(() => live && setMembers([]));
    return () => {
      live = false;
    };
  }, [load, members, http]);
  return members;
}
