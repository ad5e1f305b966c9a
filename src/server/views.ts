// What each role sees of the catalog's wiring. An agent key needs a tool's name, description and schemas
// to call it; a binding's URL template, command line, file or fallback chain is the operator's and the
// maintainer's business (SECURITY.md). Provider ids, which hold that
// wiring, reach an agent key as the same label /metrics uses: binding type and a hash of the id.
import {
  agentToolResponseSchema,
  type CallResult,
  providerLabel,
  type RouteAndExecuteResponse,
} from "../app/index.ts";
import type { Tool } from "../catalog/index.ts";
import type { Role } from "./auth.ts";

/** "cache" and "degraded" name no provider and stay as they are. */
function providerView(provider: string): string {
  return provider.includes(":") ? providerLabel(provider) : provider;
}

export function toolView(role: Role, tool: Tool): unknown {
  return role === "maintainer" ? tool : agentToolResponseSchema.parse(tool);
}

export function breakerView<B extends { provider: string }>(role: Role, breaker: B): B {
  return role === "maintainer" ? breaker : { ...breaker, provider: providerView(breaker.provider) };
}

export function executionView<E extends { provider?: string }>(role: Role, record: E): E {
  if (role === "maintainer" || record.provider === undefined) return record;
  return { ...record, provider: providerView(record.provider) };
}

export function callResultView(role: Role, result: CallResult): CallResult {
  if (role === "maintainer") return result;
  const { provenance } = result;
  const breakers = Object.fromEntries(
    Object.entries(provenance.breakers).map(([provider, state]) => [providerView(provider), state]),
  );
  return {
    ...result,
    provenance: {
      ...provenance,
      ...(provenance.provider === undefined ? {} : { provider: providerView(provenance.provider) }),
      breakers,
    },
  };
}

export function routeAndExecuteView(role: Role, answer: RouteAndExecuteResponse): RouteAndExecuteResponse {
  if (role === "maintainer") return answer;
  return {
    ...answer,
    ...(answer.result ? { result: callResultView(role, answer.result) } : {}),
    ...(answer.intents ? { intents: answer.intents.map((intent) => routeAndExecuteView(role, intent)) } : {}),
    ...(answer.calls
      ? { calls: answer.calls.map((call) => ({ ...call, result: callResultView(role, call.result) })) }
      : {}),
    steps: answer.steps.map((step) =>
      "result" in step && step.result ? { ...step, result: callResultView(role, step.result) } : step,
    ),
  };
}
