// Egress: where outbound requests from tools (http bindings, ctx.fetch, a headless browser's requests)
// may go. `createEgressPolicy({ allow })` gives `check(url)` (allowed after DNS resolution, or refused with
// a reason) and a `fetch` that connects only to allowed destinations, pinned to the address it checked.

export { BodyTooLargeError, readCappedBody } from "./capped-body.ts";
export {
  createEgressPolicy,
  EgressDeniedError,
  type EgressOptions,
  type EgressPolicy,
  type EgressVerdict,
  publicOnly,
  type Resolver,
} from "./policy.ts";
export { EgressConfigError, parseRule } from "./rules.ts";
export { isAllowedUrl } from "./url-allowlist.ts";
