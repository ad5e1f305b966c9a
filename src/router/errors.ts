/** A problem with what was asked of the router (a bad query, an empty catalog): one sentence for the user. */
export class RouterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RouterError";
  }
}
