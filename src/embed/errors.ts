/** Anything that stops an embedder from loading or embedding: the message names the cause and where. */
export class EmbedError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EmbedError";
  }
}
