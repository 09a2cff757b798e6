/** Resolve hook registered by typescript6.mjs (see there why): `typescript` → TypeScript 6's API package. */
const TYPESCRIPT6 = '@typescript/typescript6';

/** `typescript` or `typescript/<file>` → the same in TypeScript 6's package; any other name unchanged. */
export function toTypescript6(specifier) {
  return specifier === 'typescript' || specifier.startsWith('typescript/') ? TYPESCRIPT6 + specifier.slice('typescript'.length) : specifier;
}

export function resolve(specifier, context, nextResolve) {
  return nextResolve(toTypescript6(specifier), context);
}
