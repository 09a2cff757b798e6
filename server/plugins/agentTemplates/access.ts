/**
 * Who may use and who may maintain a company's agent templates. Today both are every member who can
 * view chats (agents maintain their own canned replies); a role rule for editing goes in
 * canEditAgentTemplates only.
 */
import { canView, type PermissionMap, type RoleId } from '../../../contract/permissions';

export interface TemplateActor {
  role: RoleId;
  permissions: PermissionMap;
}

export function canUseAgentTemplates(actor: TemplateActor): boolean {
  return canView(actor.permissions, 'chats');
}

export function canEditAgentTemplates(actor: TemplateActor): boolean {
  return canUseAgentTemplates(actor);
}
