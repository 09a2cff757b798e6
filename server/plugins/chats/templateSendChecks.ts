/**
 * Checks of a template message before it is stored (chats' extension point): the templates plugin
 * compares it with the company's synced copy of the template. The first problem found refuses it.
 */
import type { TemplateSendPayload } from '../../../contract/chats';
import type { TemplateSendCheck, TemplateSendChecks } from './index';

export class TemplateSendCheckRegistry implements TemplateSendChecks {
  private readonly checks: TemplateSendCheck[] = [];

  add(check: TemplateSendCheck): void {
    this.checks.push(check);
  }

  /** The first problem a check finds, or null. */
  async problem(room: { companyId: number; channelId: number }, template: TemplateSendPayload, mediaUrl: string | null | undefined): Promise<string | null> {
    for (const check of this.checks) {
      const problem = await check(room, template, mediaUrl);
      if (problem) return problem;
    }
    return null;
  }
}
