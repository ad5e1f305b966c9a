// Pages inspected in the supervised browser: for the inspect endpoint, and for the LLM writing a tool from
// an intent that names pages.
import {
  BrowserFailure,
  type BrowserSupervisor,
  type InspectReport,
  type InspectRequest,
  inspectPage,
} from "../browser/index.ts";
import { isAllowedUrl } from "../egress/index.ts";
import type { IntentRequest } from "../synth/index.ts";
import { AppError } from "./types.ts";

/** The page's report; a bad or blocked URL is the caller's fault (invalid), anything else unavailable. */
export async function inspect(browser: BrowserSupervisor, request: InspectRequest): Promise<InspectReport> {
  try {
    return await inspectPage(browser, request);
  } catch (error) {
    if (!(error instanceof BrowserFailure)) throw error;
    const callerFault = error.class === "invalid" || error.class === "blocked";
    throw new AppError(callerFault ? "invalid" : "unavailable", error.message);
  }
}

/**
 * Inspection reports of the pages an intent names, for the LLM writing its tool: only URLs the request
 * already grants (browser or fetch allowlists), so an intent cannot send the service anywhere new. A
 * page that cannot be inspected is left out; the tool's own test run will meet the same problem.
 */
export async function pagesNamedIn(
  browser: BrowserSupervisor,
  request: IntentRequest,
): Promise<{ url: string; report: InspectReport }[]> {
  const text = `${request.intent ?? ""} ${request.description ?? ""}`;
  const allowed = [
    ...(request.capabilities?.browser?.allow ?? []),
    ...(request.capabilities?.fetch?.allow ?? []),
  ];
  const urls = [...new Set(text.match(/https?:\/\/[^\s"'<>]+/g) ?? [])]
    .map((url) => url.replace(/[.,;:!?)]+$/, ""))
    .filter((url) => URL.canParse(url) && isAllowedUrl(new URL(url), allowed))
    .slice(0, 2);
  const reports = await Promise.all(
    urls.map((url) =>
      inspect(browser, { url }).then(
        (report) => ({ url, report }),
        () => undefined,
      ),
    ),
  );
  return reports.filter((entry) => entry !== undefined);
}
