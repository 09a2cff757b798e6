/**
 * The broadcasts one phone was sent in a company, newest first: the contact panel shows them (a broadcast's
 * messages are recipients here, not messages of a room). Through the company's broadcasts and the unique
 * (broadcast, phone) index, so it stays an index lookup per broadcast however many recipients there are.
 */
import { sql } from 'drizzle-orm';
import type { ContactBroadcast } from '../../../contract/contacts';
import type { Database } from '../../core/db/client';
import { rowsOf } from '../../core/db/rows';
import type { BroadcastHistory } from './index';

export class RecipientHistory implements BroadcastHistory {
  constructor(private readonly db: Database) {}

  async receivedBy(companyId: number, phone: string, limit: number): Promise<ContactBroadcast[]> {
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`
      select b.id, b.name, br.state, br.sent_at
      from broadcasts b join broadcast_recipients br on br.broadcast_id = b.id and br.phone = ${phone}
      where b.company_id = ${companyId} and br.state in ('sent', 'delivered', 'read', 'replied', 'failed')
      order by coalesce(br.sent_at, br.created_at) desc, b.id desc
      limit ${limit}`));
    return rows.map((r) => ({
      id: Number(r.id),
      name: String(r.name),
      state: String(r.state),
      sent_at: r.sent_at ? new Date(r.sent_at as string).toISOString() : null,
    }));
  }
}
