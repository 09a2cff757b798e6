/** Access rules of routes and socket topics (see rules.ts, routeTable.ts, topics.ts). */
export { access, ACCESS_KINDS, describeRule, isAccessRule, needsLogin, BOT_KEY_SCHEME } from './rules';
export type { AccessKind, AccessLevel, AccessRule, BotKeyResolver, RequiredPermission } from './rules';
export { declareRoutes, formatRouteTable, MissingAccessRuleError, registerAccessControl } from './routeTable';
export type { RouteAccessEntry, RouteMatch } from './routeTable';
export { checkTopicAccess, describeTopicRule, isTopicAccessRule, topicAccess, topicResourceId } from './topics';
export type { TopicAccessRule, TopicVerdict } from './topics';
