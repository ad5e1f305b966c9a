export {
  type AdmissionRules,
  admissionIssues,
  MCP_TOOL_NAME,
  nameIssues,
  RESERVED_TOOL_NAMES,
  reservedNameIssue,
} from "./admission.ts";
export { bindingIssues } from "./binding-check.ts";
export { canonicalJson, catalogHash } from "./hash.ts";
export {
  type BindingFor,
  type FunctionsImport,
  functionEntries,
  importFunctions,
  toolsFromFunctions,
} from "./import-functions.ts";
export { importMcp, importOpenApi, type McpImport, type OpenApiImport } from "./importers.ts";
export {
  checkJsonSchema,
  type SchemaCheck,
  type SchemaIssue,
  schemaCheck,
  validateAgainstSchema,
} from "./json-schema.ts";
export { type CatalogReport, isError, loadCatalog, readCatalog } from "./load.ts";
export { applyMapping, MappingError, readPath } from "./mapping.ts";
export { mappingIssues } from "./mapping-check.ts";
export type { FieldMap, OutputMap } from "./mapping-schema.ts";
export { CatalogError, type CatalogProblem, formatProblem } from "./problem.ts";
export { linearRegExp, type RegExpLike } from "./regex.ts";
export {
  isPending,
  OVERLAY_KEY,
  type RegistryEntry,
  type RegistryOptions,
  type SynthesisProvenance,
  synthesisProvenanceSchema,
  type ToolChange,
  type ToolOrigin,
  ToolRegistry,
  ToolValidationError,
} from "./registry.ts";
export {
  type Binding,
  type BreakerPolicy,
  type BrowserGrant,
  bindingSchema,
  type Capabilities,
  catalogFileSchema,
  type ErrorRules,
  type HttpBinding,
  type McpBinding,
  type RetryPolicy,
  type SandboxBinding,
  TOOL_NAME_PATTERN,
  type Tool,
  type ToolPolicy,
  toolNameSchema,
  toolSchema,
} from "./schema.ts";
export { didYouMean, nearestNames, unknownToolMessage } from "./suggest.ts";
export { writeCatalogFile } from "./write.ts";
export { MAX_YAML_ALIASES, parseYaml, YamlError } from "./yaml.ts";
