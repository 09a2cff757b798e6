/** A refusal answered to the client as `{reason, errors?}`. */
export class ChatError extends Error {
  constructor(
    readonly reason: string,
    readonly errors?: Record<string, string[]>,
  ) {
    super(reason);
    this.name = 'ChatError';
  }
}
