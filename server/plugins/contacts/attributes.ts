/**
 * The company's contact attribute definitions (GET, POST /api/contact-attributes/, PATCH and DELETE by
 * id) and the check of a contact's attribute values against them. A key is fixed once defined (values
 * are stored under it); so is the type (stored values would no longer fit). Deleting a definition
 * leaves the stored values, unused, so defining the key again brings them back.
 */
import { and, asc, eq } from 'drizzle-orm';
import { checkAttributeValue, CONTACT_MESSAGES, type AttributeValue, type ContactAttribute, type ContactAttributeCreate, type ContactAttributePatch } from '../../../contract/contacts';
import type { FieldErrors } from '../../../contract/errors';
import type { Database } from '../../core/db/client';
import { fieldError, notFound, validationError } from '../../core/errors';
import { isUniqueViolation } from '../../core/db/uniqueViolation';
import { contactAttributes } from './schema';

type Row = typeof contactAttributes.$inferSelect;

export function toAttribute(row: Row): ContactAttribute {
  return { id: row.id, name: row.name, key: row.key, type: row.type, options: row.options, created_at: row.createdAt.toISOString() };
}

export class ContactAttributes {
  constructor(private readonly db: Database) {}

  async list(companyId: number): Promise<ContactAttribute[]> {
    const rows = await this.db.select().from(contactAttributes).where(eq(contactAttributes.companyId, companyId)).orderBy(asc(contactAttributes.name), asc(contactAttributes.id));
    return rows.map(toAttribute);
  }

  async create(companyId: number, body: ContactAttributeCreate & { options: string[] }): Promise<ContactAttribute> {
    try {
      const [row] = await this.db
        .insert(contactAttributes)
        .values({ companyId, name: body.name, key: body.key, type: body.type, options: body.type === 'list' ? body.options : [] })
        .returning();
      return toAttribute(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw fieldError('key', CONTACT_MESSAGES.attributeKeyTaken);
      throw err;
    }
  }

  async update(companyId: number, id: number, patch: ContactAttributePatch & { options?: string[] }): Promise<ContactAttribute> {
    const [row] = await this.db.select().from(contactAttributes).where(and(eq(contactAttributes.id, id), eq(contactAttributes.companyId, companyId)));
    if (!row) throw notFound();
    const options = patch.options === undefined || row.type !== 'list' ? row.options : patch.options;
    if (row.type === 'list' && options.length === 0) throw fieldError('options', CONTACT_MESSAGES.listNeedsOptions);
    const [updated] = await this.db
      .update(contactAttributes)
      .set({ name: patch.name ?? row.name, options })
      .where(eq(contactAttributes.id, id))
      .returning();
    return toAttribute(updated);
  }

  async remove(companyId: number, id: number): Promise<void> {
    const deleted = await this.db
      .delete(contactAttributes)
      .where(and(eq(contactAttributes.id, id), eq(contactAttributes.companyId, companyId)))
      .returning({ id: contactAttributes.id });
    if (!deleted.length) throw notFound();
  }

  /**
   * A contact's new attribute values: `changes` checked against the definitions and merged over
   * `current` (null removes a value). Unknown keys and values of the wrong type answer 400, one
   * message per key under `attributes.<key>`.
   */
  async merge(companyId: number, current: Record<string, AttributeValue>, changes: Record<string, AttributeValue | null>): Promise<Record<string, AttributeValue>> {
    const definitions = new Map((await this.list(companyId)).map((d) => [d.key, d]));
    const errors: FieldErrors = {};
    const next = { ...current };
    for (const [key, value] of Object.entries(changes)) {
      const definition = definitions.get(key);
      if (!definition) {
        errors[`attributes.${key}`] = [CONTACT_MESSAGES.unknownAttribute(key)];
        continue;
      }
      if (value === null || value === '') {
        delete next[key];
        continue;
      }
      const checked = checkAttributeValue(definition, value);
      if (checked.ok) next[key] = checked.value;
      else errors[`attributes.${key}`] = [checked.message];
    }
    if (Object.keys(errors).length) throw validationError(errors);
    return next;
  }
}
