// Understanding a request beyond routing: the opaque values in it, the arguments a tool's schema can take
// from it, and the separate intents it contains.
export { askedForWords, namesAskedFor } from "./asked-for.ts";
export {
  BARE_FILL_CONFIDENCE_BAR,
  BARE_FILL_WEIGHTS,
  bareFillConfidence,
  DOUBTS,
  type Doubt,
} from "./bare-confidence.ts";
export { type Evidence, FILL_CONFIDENCE, FILL_CONFIDENCE_BAR, fillConfidence } from "./confidence.ts";
export { dataKind } from "./data-kind.ts";
export { namesUnit } from "./described-units.ts";
export { requestStart } from "./envelope.ts";
export { type ExampleCall, learnFromExamples } from "./examples.ts";
export {
  type FilledValue,
  type FillOptions,
  type FillResult,
  fillArguments,
  type MissingField,
  questionFor,
} from "./fill.ts";
export { findOpaqueValues, type OpaqueKind, type OpaqueValue, routingText } from "./opaque.ts";
export { pastedDataStart } from "./recognisers/pasted.ts";
export { findQuoted } from "./recognisers/quoted.ts";
export { opensRequest } from "./recognisers/statements.ts";
export { requestedAction } from "./requested-action.ts";
export { escapeRegExp } from "./schema-cues.ts";
export {
  primaryValue,
  referencedKind,
  refersBack,
  refersToPrevious,
  splitIntents,
  substituteReference,
} from "./split.ts";
export { findZones } from "./timezones.ts";
export { outputNames } from "./unused.ts";
