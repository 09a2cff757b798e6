/**
 * TRANSITIONAL (issue #20): a Fastify plugin function not yet declared with defineServerPlugin, run in
 * its own scope like any plugin. Removed once every plugin declares its deps.
 */
import type { FastifyInstance } from 'fastify';
import { coreServices } from './coreServices';
import { defineServerPlugin, type ServerPlugin } from './defineServerPlugin';

export function legacyServerPlugin(id: string, register: (app: FastifyInstance) => Promise<void>): ServerPlugin {
  return defineServerPlugin({ id, deps: { http: coreServices.http }, init: ({ http }) => register(http) });
}
